#pragma once

// FlatSimulation's steps 9 and 10 and the table written: slots for the unmerged
// clusters, their expansion, the rebuilt table and belong lists.
// flat_simulation.h declares them and includes this file after the class:
// include flat_simulation.h, not this.

namespace adj::fracture::flat {

// 9: the k-th unmerged new cluster takes the k-th lowest invalid slot,
// else a slot past the end (slot_of_[k]); the table grows to slots_next_.
template <typename B>
std::uint32_t FlatSimulation<B>::AssignSlots(std::uint32_t fresh) {
  const std::uint32_t* target = target_.data();
  std::uint8_t* drop = fresh_drop_.data();
  backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
    drop[c] = target[c] == kNone ? 0 : 1;
  });
  EnsureIota(std::max(fresh, slots_));
  unmerged_.Resize(fresh);
  const std::uint32_t inserted =
      backend_.Compact(iota_.data(), drop, fresh, unmerged_.data());
  slot_drop_.Resize(slots_);
  std::uint8_t* slot_drop = slot_drop_.data();
  const std::uint8_t* valid = valid_.data();
  backend_.ForEach(slots_, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
    slot_drop[s] = valid[s];
  });
  free_.Resize(slots_);
  const std::uint32_t free_count =
      backend_.Compact(iota_.data(), slot_drop, slots_, free_.data());
  slots_next_ = slots_ + (inserted > free_count ? inserted - free_count : 0);
  slot_of_.Resize(inserted);
  unmerged_at_.Resize(slots_next_);
  std::uint32_t* slot_of = slot_of_.data();
  std::uint32_t* unmerged_at = unmerged_at_.data();
  const std::uint32_t* free = free_.data();
  const std::uint32_t old_slots = slots_;
  backend_.ForEach(slots_next_, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
    unmerged_at[s] = kNone;
  });
  backend_.ForEach(inserted, [=] ADJ_FRACTURE_HD(std::uint32_t u) {
    const std::uint32_t slot =
        u < free_count ? free[u] : old_slots + (u - free_count);
    slot_of[u] = slot;
    unmerged_at[slot] = u;
  });
  return inserted;
}

// 10: each inserted cluster below min_cluster_size grows (grown_count_[u]
// particles from grown_[grown_base_[u]]). Returns how many grew.
template <typename B>
std::uint32_t FlatSimulation<B>::Expand(std::uint32_t inserted) {
  const std::uint32_t min = params_.min_cluster_size;
  const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
  const std::uint32_t* unmerged = unmerged_.data();
  counts_.Resize(inserted);
  std::uint32_t* room = counts_.data();
  backend_.ForEach(inserted, [=] ADJ_FRACTURE_HD(std::uint32_t u) {
    room[u] = fresh_rows.Size(unmerged[u]) < min ? min : 0;
  });
  grown_base_.Resize(inserted + 1);
  const std::uint32_t total = backend_.Scan(room, inserted, grown_base_.data());
  grown_.Resize(std::max<std::uint32_t>(total, 1));
  candidates_.Resize(std::max<std::uint32_t>(total, 1));
  grown_count_.Resize(inserted);
  const GridView grid = Grid();
  const bool breadth_first = params_.expansion == Expansion::kBreadthFirst;
  const std::uint64_t seed = params_.seed;
  const std::uint64_t frame = host_.frame;
  const std::uint32_t* grown_base = grown_base_.data();
  const std::uint32_t* slot_of = slot_of_.data();
  std::uint32_t* grown = grown_.data();
  std::uint32_t* candidates = candidates_.data();
  std::uint32_t* grown_count = grown_count_.data();
  backend_.ForEach(inserted, [=] ADJ_FRACTURE_HD(std::uint32_t u) {
    const std::uint32_t c = unmerged[u];
    grown_count[u] = 0;
    if (fresh_rows.Size(c) >= min) return;
    grown_count[u] =
        Grow(grid, fresh_rows.indices + fresh_rows.Begin(c), fresh_rows.Size(c),
             min, breadth_first, detail::MixedSeed(seed, frame, slot_of[u]),
             grown + grown_base[u], candidates + grown_base[u]);
  });
  std::uint32_t expanded = 0;
  for (const std::uint32_t count : Get(grown_count_, inserted)) {
    expanded += count > 0;
  }
  return expanded;
}

// Long: one pass over the grown table's slots writing its member Csr,
// rest positions and attributes together.
// 8-10 written: one pass over the slots of the grown table builds its
// member Csr, rest local positions and attributes.
template <typename B>
void FlatSimulation<B>::RebuildTable(std::uint32_t influenced_count) {
  const std::uint32_t slots = slots_next_;
  const std::uint32_t old_slots = slots_;
  slot_drop_.Resize(old_slots);
  std::uint8_t* was_influenced = slot_drop_.data();
  backend_.ForEach(old_slots, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
    was_influenced[s] = 0;
  });
  const std::uint32_t* influenced = influenced_.data();
  backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
    was_influenced[influenced[i]] = 1;
  });
  const Rows table = TableRows();
  const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
  const std::uint8_t* valid = valid_.data();
  const std::uint32_t* added = added_.data();
  const std::uint32_t* unmerged_at = unmerged_at_.data();
  const std::uint32_t* unmerged = unmerged_.data();
  const std::uint32_t* grown_count = grown_count_.data();
  counts_.Resize(slots);
  std::uint32_t* sizes = counts_.data();
  backend_.ForEach(slots, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
    const std::uint32_t u = unmerged_at[s];
    if (u != kNone) {
      sizes[s] = fresh_rows.Size(unmerged[u]) + grown_count[u];
    } else {
      sizes[s] = s < old_slots && valid[s] ? table.Size(s) + added[s] : 0;
    }
  });
  next_offsets_.Resize(slots + 1);
  const std::uint32_t entries =
      backend_.Scan(sizes, slots, next_offsets_.data());
  next_members_.Resize(entries);
  next_rest_.Resize(entries);
  next_valid_.Resize(slots);
  next_stiffness_.Resize(slots);
  next_rotation_.Resize(slots);
  next_translation_.Resize(slots);
  const std::uint32_t* next_offsets = next_offsets_.data();
  std::uint32_t* next_members = next_members_.data();
  Vec3* next_rest = next_rest_.data();
  std::uint8_t* next_valid = next_valid_.data();
  float* next_stiffness = next_stiffness_.data();
  Quat* next_rotation = next_rotation_.data();
  Vec3* next_translation = next_translation_.data();
  const Vec3* rest = rest_.data();
  const float* stiffness = stiffness_.data();
  const Quat* rotation = rotation_.data();
  const Vec3* translation = translation_.data();
  const float* fresh_stiffness = fresh_stiffness_.data();
  const Quat* fresh_rotation = fresh_rotation_.data();
  const Vec3* fresh_translation = fresh_translation_.data();
  const std::uint32_t* extras = extras_.data();
  const std::uint32_t* extra_start = extra_start_.data();
  const std::uint32_t* grown = grown_.data();
  const std::uint32_t* grown_base = grown_base_.data();
  const Coord* coords = coords_.data();
  backend_.ForEach(slots, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
    std::uint32_t* out = next_members + next_offsets[s];
    Vec3* out_rest = next_rest + next_offsets[s];
    const std::uint32_t u = unmerged_at[s];
    if (u != kNone) {
      const std::uint32_t c = unmerged[u];
      std::uint32_t n = 0;
      for (std::uint32_t e = fresh_rows.Begin(c); e < fresh_rows.End(c); ++e) {
        out[n++] = fresh_rows.indices[e];
      }
      for (std::uint32_t k = 0; k < grown_count[u]; ++k) {
        out[n++] = grown[grown_base[u] + k];
      }
      WriteRestLocal(coords, out, n, out_rest);
      next_valid[s] = 1;
      next_stiffness[s] = fresh_stiffness[c];
      next_rotation[s] = fresh_rotation[c];
      next_translation[s] = fresh_translation[c];
      return;
    }
    if (s < old_slots && valid[s]) {
      std::uint32_t n = 0;
      for (std::uint32_t e = table.Begin(s); e < table.End(s); ++e, ++n) {
        out[n] = table.indices[e];
        out_rest[n] = rest[e];
      }
      for (std::uint32_t k = 0; k < added[s]; ++k) {
        out[n++] = extras[extra_start[s] + k];
      }
      if (added[s] > 0) WriteRestLocal(coords, out, n, out_rest);
    }
    const bool reset = s >= old_slots || was_influenced[s];
    next_valid[s] = s < old_slots ? valid[s] : 0;
    next_stiffness[s] = reset ? 1.0f : stiffness[s];
    next_rotation[s] = reset ? Quat{} : rotation[s];
    next_translation[s] = reset ? Vec3{} : translation[s];
  });
  std::swap(offsets_, next_offsets_);
  std::swap(members_, next_members_);
  std::swap(rest_, next_rest_);
  std::swap(valid_, next_valid_);
  std::swap(stiffness_, next_stiffness_);
  std::swap(rotation_, next_rotation_);
  std::swap(translation_, next_translation_);
  slots_ = slots;
}

// The belong lists from the table: (particle, slot) pairs in slot order,
// sorted stably by particle.
template <typename B>
void FlatSimulation<B>::RebuildBelong() {
  std::uint32_t entries = 0;
  backend_.Download(&entries, offsets_.data() + slots_, 1);
  keys_.Resize(std::max<std::uint32_t>(entries, 1));
  belong_slots_.Resize(std::max<std::uint32_t>(entries, 1));
  std::uint64_t* keys = keys_.data();
  std::uint32_t* slots_of = belong_slots_.data();
  const std::uint32_t* offsets = offsets_.data();
  const std::uint32_t* members = members_.data();
  const std::uint32_t slots = slots_;
  backend_.ForEach(entries, [=] ADJ_FRACTURE_HD(std::uint32_t e) {
    keys[e] = members[e];
    slots_of[e] = UpperBound(offsets, slots + 1, e) - 1;
  });
  backend_.SortPairs(keys, slots_of, entries, Bits(particles_));
  belong_offsets_.Resize(particles_ + 1);
  std::uint32_t* belong_offsets = belong_offsets_.data();
  backend_.ForEach(particles_ + 1, [=] ADJ_FRACTURE_HD(std::uint32_t p) {
    belong_offsets[p] = Find(keys, 0, entries, p);
  });
  belong_entries_ = entries;
}

}  // namespace adj::fracture::flat

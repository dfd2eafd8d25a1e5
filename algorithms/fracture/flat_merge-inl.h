#pragma once

// FlatSimulation's steps 7 and 8: the merge-target search (rounds of proposals
// or the published protocol) and the merge. flat_simulation.h declares them and
// includes this file after the class: include flat_simulation.h, not this.

namespace adj::fracture::flat {

template <typename B>
SearchView FlatSimulation<B>::Search() const {
  SearchView view;
  view.grid = Grid();
  view.fresh = Rows{fresh_offsets_.data(), fresh_members_.data()};
  view.belong = BelongRows();
  view.valid = valid_.data();
  view.max_cluster_size = params_.max_cluster_size;
  return view;
}

// reserved_[s] = the size of live slot s (0 for the others).
template <typename B>
void FlatSimulation<B>::ResetReserved() {
  reserved_.Resize(slots_);
  std::uint32_t* reserved = reserved_.data();
  const Rows table = TableRows();
  const std::uint8_t* valid = valid_.data();
  backend_.ForEach(slots_, [=] ADJ_FRACTURE_HD(std::uint32_t s) {
    reserved[s] = valid[s] ? table.Size(s) : 0;
  });
}

// 7, ours: data_parallel's rounds of proposals; target_[c] = the slot c
// merges into, or kNone.
template <typename B>
void FlatSimulation<B>::SearchRounds(std::uint32_t fresh) {
  ResetReserved();
  const SearchView view = Search();
  target_.Resize(fresh);
  resume_.Resize(fresh);
  proposal_.Resize(fresh);
  active_.Resize(fresh);
  next_active_.Resize(fresh);
  fresh_drop_.Resize(fresh);
  std::uint32_t* target = target_.data();
  std::uint32_t* resume = resume_.data();
  std::uint32_t* proposal = proposal_.data();
  backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
    target[c] = kNone;
    resume[c] = 0;
  });
  EnsureIota(fresh);
  backend_.Copy(active_.data(), iota_.data(), fresh);
  std::uint32_t active_count = fresh;
  std::uint32_t* reserved = reserved_.data();
  const std::uint32_t max = params_.max_cluster_size;
  while (active_count > 0) {
    const std::uint32_t* active = active_.data();
    std::uint8_t* drop = fresh_drop_.data();
    backend_.ForEach(active_count, [=] ADJ_FRACTURE_HD(std::uint32_t a) {
      const std::uint32_t c = active[a];
      proposal[c] = Propose(view, reserved, c, resume + c);
      drop[a] = proposal[c] == kNone ? 1 : 0;
    });
    offers_.Resize(active_count);
    const std::uint32_t offer_count =
        backend_.Compact(active, drop, active_count, offers_.data());
    keys_.Resize(std::max<std::uint32_t>(offer_count, 1));
    std::uint64_t* keys = keys_.data();
    std::uint32_t* offers = offers_.data();
    backend_.ForEach(offer_count, [=] ADJ_FRACTURE_HD(std::uint32_t o) {
      const std::uint32_t c = offers[o];
      keys[o] = PairKey(proposal[c], c);
    });
    backend_.SortPairs(keys, offers, offer_count, 32 + Bits(slots_));
    // Each target's first offer takes its proposers in order; the
    // rejected ones propose again.
    const Rows fresh_rows = view.fresh;
    rejected_.Resize(fresh);
    std::uint8_t* rejected_by_cluster = rejected_.data();
    backend_.ForEach(offer_count, [=] ADJ_FRACTURE_HD(std::uint32_t o) {
      rejected_by_cluster[offers[o]] = 0;
    });
    backend_.ForEach(offer_count, [=] ADJ_FRACTURE_HD(std::uint32_t o) {
      const auto nc = HighHalf(keys[o]);
      if (o > 0 && HighHalf(keys[o - 1]) == nc) {
        return;
      }
      for (std::uint32_t e = o; e < offer_count && HighHalf(keys[e]) == nc;
           ++e) {
        const std::uint32_t c = offers[e];
        const std::uint32_t size = fresh_rows.Size(c);
        if (static_cast<std::uint64_t>(reserved[nc]) + size < max) {
          reserved[nc] += size;
          target[c] = nc;
        } else {
          rejected_by_cluster[c] = 1;
        }
      }
    });
    std::uint8_t* rejected = fresh_drop_.data();
    backend_.ForEach(active_count, [=] ADJ_FRACTURE_HD(std::uint32_t a) {
      const std::uint32_t c = active[a];
      rejected[a] = (proposal[c] != kNone && rejected_by_cluster[c]) ? 0 : 1;
    });
    active_count =
        backend_.Compact(active, rejected, active_count, next_active_.data());
    std::swap(active_, next_active_);
  }
}

// 7, as published: one work item per member of a new cluster.
template <typename B>
void FlatSimulation<B>::SearchPublished(std::uint32_t fresh,
                                        std::uint32_t entries) {
  ResetReserved();
  target_.Resize(fresh);
  lock_.Resize(fresh);
  searched_.Resize(fresh);
  row_of_.Resize(entries);
  std::uint32_t* target = target_.data();
  std::uint32_t* lock = lock_.data();
  std::uint32_t* searched = searched_.data();
  std::uint32_t* row_of = row_of_.data();
  const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
  backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
    target[c] = kNone;
    lock[c] = 0;
    searched[c] = 0;
    for (std::uint32_t e = fresh_rows.Begin(c); e < fresh_rows.End(c); ++e) {
      row_of[e] = c;
    }
  });
  PublishedSearch search;
  search.view = Search();
  search.reserved = reserved_.data();
  search.lock = lock;
  search.searched = searched;
  search.target = target;
  backend_.ForEach(entries, [=] ADJ_FRACTURE_HD(std::uint32_t e) {
    search.Item(row_of[e], e);
  });
}

// The report's merges: row c holds target_[c] unless kNone.
template <typename B>
Csr FlatSimulation<B>::Merges(std::uint32_t fresh) {
  const auto target = Get(target_, fresh);
  Csr merges;
  for (const std::uint32_t nc : target) {
    if (nc != kNone) merges.indices.push_back(nc);
    merges.offsets.push_back(static_cast<std::uint32_t>(merges.indices.size()));
  }
  return merges;
}

// 8: per target, its new clusters in ascending order append the members
// it lacks, each once, in that order (added_[nc] of them from
// extras_[extra_start_[nc]]). One item per candidate (a member of a
// merging new cluster): a stable sort by (target, particle) puts each
// particle's first candidate per target first, so no thread walks a
// target's candidates alone. Returns how many new clusters merged.
template <typename B>
std::uint32_t FlatSimulation<B>::Merge(std::uint32_t fresh) {
  const std::uint32_t* target = target_.data();
  fresh_drop_.Resize(fresh);
  std::uint8_t* drop = fresh_drop_.data();
  backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
    drop[c] = target[c] == kNone ? 1 : 0;
  });
  EnsureIota(fresh);
  merged_.Resize(fresh);
  const std::uint32_t merged =
      backend_.Compact(iota_.data(), drop, fresh, merged_.data());
  added_.Resize(slots_);
  extra_start_.Resize(slots_);
  std::uint32_t* added = added_.data();
  backend_.ForEach(slots_,
                   [=] ADJ_FRACTURE_HD(std::uint32_t s) { added[s] = 0; });
  if (merged == 0) return 0;
  keys_.Resize(merged);
  std::uint64_t* keys = keys_.data();
  std::uint32_t* pairs = merged_.data();
  backend_.ForEach(merged, [=] ADJ_FRACTURE_HD(std::uint32_t m) {
    const std::uint32_t c = pairs[m];
    keys[m] = PairKey(target[c], c);
  });
  backend_.SortPairs(keys, pairs, merged, 32 + Bits(slots_));
  const Rows fresh_rows{fresh_offsets_.data(), fresh_members_.data()};
  counts_.Resize(merged);
  std::uint32_t* sizes = counts_.data();
  backend_.ForEach(merged, [=] ADJ_FRACTURE_HD(std::uint32_t m) {
    sizes[m] = fresh_rows.Size(pairs[m]);
  });
  extra_base_.Resize(merged + 1);
  const std::uint32_t candidate_count =
      backend_.Scan(sizes, merged, extra_base_.data());
  if (candidate_count == 0) return merged;
  candidate_keys_.Resize(candidate_count);
  candidate_order_.Resize(candidate_count);
  candidate_member_.Resize(candidate_count);
  candidate_target_.Resize(candidate_count);
  candidate_drop_.Resize(candidate_count);
  std::uint64_t* candidate_keys = candidate_keys_.data();
  std::uint32_t* order = candidate_order_.data();
  std::uint32_t* member = candidate_member_.data();
  std::uint32_t* target_of = candidate_target_.data();
  std::uint8_t* candidate_drop = candidate_drop_.data();
  const std::uint32_t* extra_base = extra_base_.data();
  backend_.ForEach(candidate_count, [=] ADJ_FRACTURE_HD(std::uint32_t q) {
    const std::uint32_t m = UpperBound(extra_base + 1, merged, q);
    const std::uint32_t nc = HighHalf(keys[m]);
    const std::uint32_t p =
        fresh_rows.indices[fresh_rows.Begin(pairs[m]) + (q - extra_base[m])];
    candidate_keys[q] = PairKey(nc, p);
    order[q] = q;
    member[q] = p;
    target_of[q] = nc;
  });
  backend_.SortPairs(candidate_keys, order, candidate_count, 32 + Bits(slots_));
  const Rows belong = BelongRows();
  backend_.ForEach(candidate_count, [=] ADJ_FRACTURE_HD(std::uint32_t t) {
    const std::uint32_t q = order[t];
    const bool first = t == 0 || candidate_keys[t - 1] != candidate_keys[t];
    candidate_drop[q] =
        first && !RowHolds(belong, member[q], target_of[q]) ? 0 : 1;
  });
  extras_.Resize(candidate_count);
  extra_target_.Resize(candidate_count);
  const std::uint32_t kept =
      backend_.Compact(member, candidate_drop, candidate_count, extras_.data());
  backend_.Compact(target_of, candidate_drop, candidate_count,
                   extra_target_.data());
  const std::uint32_t* extra_target = extra_target_.data();
  std::uint32_t* extra_start = extra_start_.data();
  backend_.ForEach(kept, [=] ADJ_FRACTURE_HD(std::uint32_t t) {
    if (t == 0 || extra_target[t - 1] != extra_target[t]) {
      extra_start[extra_target[t]] = t;
    }
  });
  backend_.ForEach(kept, [=] ADJ_FRACTURE_HD(std::uint32_t t) {
    const std::uint32_t nc = extra_target[t];
    if (t + 1 == kept || extra_target[t + 1] != nc) {
      added[nc] = t + 1 - extra_start[nc];
    }
  });
  return merged;
}

}  // namespace adj::fracture::flat

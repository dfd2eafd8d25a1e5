#pragma once

// FlatSimulation's steps 1 to 4: the damage, the nodes, the influenced clusters
// and their members without the removed particles. flat_simulation.h declares
// them and includes this file after the class: include flat_simulation.h, not
// this.

namespace adj::fracture::flat {

// 1: removed_ = the damaged particles, ascending; returns their count.
template <typename B>
std::uint32_t FlatSimulation<B>::DetectDamage() {
  const GridView grid = Grid();
  const float limit = params_.damage_distance * params_.damage_distance;
  const float* x = x_.data();
  const float* y = y_.data();
  const float* z = z_.data();
  drop_.Resize(particles_);
  std::uint8_t* drop = drop_.data();
  backend_.ForEach(particles_, [=] ADJ_FRACTURE_HD(std::uint32_t p) {
    drop[p] = !Damaged(grid, x, y, z, p, limit);
  });
  removed_.Resize(particles_);
  return backend_.Compact(iota_.data(), drop, particles_, removed_.data());
}

// 2, and the host's copy of the flags (CheckPositions reads it).
template <typename B>
void FlatSimulation<B>::UpdateNodes(std::uint32_t removed_count) {
  const std::uint32_t* removed = removed_.data();
  const std::uint32_t* node_of = node_of_.data();
  std::uint8_t* node_is_particle = node_is_particle_.data();
  backend_.ForEach(removed_count, [=] ADJ_FRACTURE_HD(std::uint32_t r) {
    node_is_particle[node_of[removed[r]]] = 0;
  });
  const auto host_removed = Get(removed_, removed_count);
  for (const std::uint32_t p : host_removed) {
    host_.node_is_particle[NodeIndex(host_.grid, host_.particle_coord[p])] = 0;
  }
}

// 3: influenced_ = the valid slots in the removed particles' lists,
// ascending.
template <typename B>
std::uint32_t FlatSimulation<B>::FindInfluenced(std::uint32_t removed_count) {
  slot_drop_.Resize(slots_);
  std::uint8_t* slot_drop = slot_drop_.data();
  backend_.ForEach(slots_,
                   [=] ADJ_FRACTURE_HD(std::uint32_t s) { slot_drop[s] = 1; });
  const std::uint32_t* removed = removed_.data();
  const Rows belong = BelongRows();
  const std::uint8_t* valid = valid_.data();
  backend_.ForEach(removed_count, [=] ADJ_FRACTURE_HD(std::uint32_t r) {
    const std::uint32_t p = removed[r];
    for (std::uint32_t e = belong.Begin(p); e < belong.End(p); ++e) {
      const std::uint32_t s = belong.indices[e];
      if (valid[s]) slot_drop[s] = 0;
    }
  });
  EnsureIota(slots_);
  influenced_.Resize(slots_);
  return backend_.Compact(iota_.data(), slot_drop, slots_, influenced_.data());
}

// 4: the influenced clusters' members without the removed particles, in
// order, one after another: vertex_particle_ (vertex v of the aggregated
// graph), vertex_base_ (cluster i's vertices start at vertex_base_[i]).
// Returns the vertex count.
template <typename B>
std::uint32_t FlatSimulation<B>::RemoveParticles(
    std::uint32_t removed_count, std::uint32_t influenced_count) {
  auto set = backend_.RemovedSet(removed_.data(), removed_count);
  const auto contains = set.View();
  const std::uint32_t* influenced = influenced_.data();
  const Rows table = TableRows();
  counts_.Resize(influenced_count);
  std::uint32_t* counts = counts_.data();
  backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
    counts[i] = table.Size(influenced[i]);
  });
  gathered_base_.Resize(influenced_count + 1);
  const std::uint32_t gathered_count =
      backend_.Scan(counts, influenced_count, gathered_base_.data());
  gathered_.Resize(gathered_count);
  entry_drop_.Resize(gathered_count);
  std::uint32_t* gathered = gathered_.data();
  std::uint8_t* entry_drop = entry_drop_.data();
  const std::uint32_t* gathered_base = gathered_base_.data();
  backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
    const std::uint32_t s = influenced[i];
    std::uint32_t kept = 0;
    for (std::uint32_t e = table.Begin(s); e < table.End(s); ++e) {
      const std::uint32_t p = table.indices[e];
      const std::uint32_t at = gathered_base[i] + (e - table.Begin(s));
      gathered[at] = p;
      entry_drop[at] = contains(p) ? 1 : 0;
      kept += entry_drop[at] == 0;
    }
    counts[i] = kept;
  });
  vertex_base_.Resize(influenced_count + 1);
  const std::uint32_t vertices =
      backend_.Scan(counts, influenced_count, vertex_base_.data());
  vertex_particle_.Resize(gathered_count);
  backend_.Compact(gathered, entry_drop, gathered_count,
                   vertex_particle_.data());
  vertex_cluster_.Resize(vertices);
  std::uint32_t* vertex_cluster = vertex_cluster_.data();
  const std::uint32_t* vertex_base = vertex_base_.data();
  backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
    for (std::uint32_t v = vertex_base[i]; v < vertex_base[i + 1]; ++v) {
      vertex_cluster[v] = i;
    }
  });
  return vertices;
}

}  // namespace adj::fracture::flat

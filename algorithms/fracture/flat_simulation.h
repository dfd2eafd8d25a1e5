#pragma once

// The update as flat passes over arrays, written once for two backends: the
// host, one item after another (flat_host.cc: the flat_host variant, which
// tests this formulation where there is no GPU), and CUDA (cuda.cu). A pass
// is B::ForEach(n, body) with a body from flat_passes.h; between passes
// come the backend's scans, stable compactions, stable radix sorts and
// connected-components labelling. Frames equal data_parallel's (with the
// published merge search on one host thread: serial's). Internal to the
// family.
//
// The table is one Csr of members by slot (with the rest local positions
// beside it) rebuilt in one pass per frame with removals; the belong lists
// are a Csr rebuilt from it by a stable sort of (particle, slot) pairs.
// Within a frame the search reads the belong lists of the frame's start:
// apart from the influenced clusters (now invalid, and skipped as such)
// and the removed particles (never a neighbour), they are the lists after
// step 6.
//
// A backend B provides
//   template <typename T> class Array: data(), size(), Resize(n) (contents
//       not kept);
//   ForEach(n, body): body(i) for i in [0, n);
//   Scan(in, n, out): out[0, n] = exclusive sums of in[0, n), returns
//       out[n];
//   Compact(values, drop, n, out): out = values[i] with drop[i] == 0, in
//       order (out has room for n and does not overlap values), returns
//       their count;
//   SortPairs(keys, values, n, end_bit): stable sort by the keys (below
//       2^end_bit), in place;
//   Labels(offsets, indices, n, labels): the smallest vertex of each
//       vertex's component;
//   RemovedSet(keys, n): a set of the n keys with a body-callable
//       Contains(key);
//   Copy(to, from, n), Upload(to, host, n), Download(host, from, n),
//   Sync().
// Every body captures copies of pointers, never `this` (CUDA's extended
// lambdas run on the device), which is also why the passes are public.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/points.h"
#include "algorithms/fracture/flat_passes.h"
#include "algorithms/fracture/fracture.h"
#include "algorithms/fracture/topology.h"

namespace adj::fracture::flat {

template <typename B>
class FlatSimulation final : public Simulation {
 public:
  template <typename T>
  using Array = typename B::template Array<T>;

  // published_search: the published protocol (a lock per new cluster, a
  // compare-and-swap on the target's size) instead of the rounds of
  // proposals.
  FlatSimulation(const State& initial, const Params& params,
                 bool published_search)
      : params_(params), published_search_(published_search) {
    host_.grid = initial.grid;
    host_.particle_coord = initial.particle_coord;
    host_.node_is_particle = initial.node_is_particle;
    host_.frame = initial.frame;
    particles_ = static_cast<std::uint32_t>(initial.Particles());
    const detail::Topology topology(initial, params.neighborhood);
    Put(coords_, initial.particle_coord);
    Put(node_of_, topology.NodesOfParticles());
    Put(node_particle_, topology.ParticlesAtNodes());
    Put(node_is_particle_, initial.node_is_particle);
    grid_.nx = initial.grid.nx;
    grid_.ny = initial.grid.ny;
    grid_.nz = initial.grid.nz;
    grid_.offset_count = static_cast<std::uint32_t>(topology.OffsetCount());
    for (std::size_t k = 0; k < topology.OffsetCount(); ++k) {
      for (int axis = 0; axis < 3; ++axis) {
        grid_.offsets[k][axis] = topology.Offset(k)[axis];
      }
      grid_.delta[k] = topology.NodeDelta(k);
    }
    UploadTable(initial.clusters);
    RebuildBelong();
    std::vector<std::uint32_t> iota(std::max<std::size_t>(particles_, 1));
    for (std::uint32_t i = 0; i < iota.size(); ++i) iota[i] = i;
    Put(iota_, iota);
  }

  void Step(const Points& positions, FrameReport& report) override {
    CheckPositions(host_, positions);
    report = FrameReport{};
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now();
    const auto lap = [&](Stage stage) {
      backend_.Sync();
      const Clock::time_point now = Clock::now();
      report.seconds[static_cast<std::size_t>(stage)] +=
          std::chrono::duration<double>(now - start).count();
      start = now;
    };
    for (Array<float>* axis : {&x_, &y_, &z_}) axis->Resize(particles_);
    backend_.Upload(x_.data(), positions.x.data(), particles_);
    backend_.Upload(y_.data(), positions.y.data(), particles_);
    backend_.Upload(z_.data(), positions.z.data(), particles_);
    const std::uint32_t removed = DetectDamage();
    lap(Stage::kDamage);
    report.removed = removed;
    if (removed > 0) {
      UpdateNodes(removed);
      lap(Stage::kNodes);
      const std::uint32_t influenced = FindInfluenced(removed);
      report.influenced = influenced;
      lap(Stage::kInfluenced);
      const std::uint32_t vertices = RemoveParticles(removed, influenced);
      lap(Stage::kRemove);
      const std::uint32_t fresh = SplitComponents(influenced, vertices);
      report.new_clusters = fresh;
      lap(Stage::kComponents);
      DeleteInfluenced(influenced, fresh);
      lap(Stage::kDelete);
      if (published_search_) {
        SearchPublished(fresh, vertices);
      } else {
        SearchRounds(fresh);
      }
      report.merges = Merges(fresh);
      lap(Stage::kMergeSearch);
      report.merged = Merge(fresh);
      lap(Stage::kMerge);
      const std::uint32_t inserted = AssignSlots(fresh);
      report.inserted = inserted;
      lap(Stage::kInsert);
      report.expanded = Expand(inserted);
      lap(Stage::kExpand);
      RebuildTable(influenced);
      lap(Stage::kInsert);
      RebuildBelong();
      lap(Stage::kBelongMaintenance);
    } else {
      report.merges = Csr{};
    }
    ++host_.frame;
  }

  State Snapshot() const override {
    State state = host_;
    const auto offsets = Get(offsets_, slots_ + 1);
    const auto members = Get(members_, offsets[slots_]);
    const auto rest = Get(rest_, offsets[slots_]);
    const auto valid = Get(valid_, slots_);
    const auto stiffness = Get(stiffness_, slots_);
    const auto rotation = Get(rotation_, slots_);
    const auto translation = Get(translation_, slots_);
    state.clusters.slots.resize(slots_);
    state.clusters.valid = valid;
    for (std::uint32_t s = 0; s < slots_; ++s) {
      Cluster& cluster = state.clusters.slots[s];
      cluster.particles.assign(members.begin() + offsets[s],
                               members.begin() + offsets[s + 1]);
      cluster.rest_local.assign(rest.begin() + offsets[s],
                                rest.begin() + offsets[s + 1]);
      cluster.stiffness = stiffness[s];
      cluster.rotation = rotation[s];
      cluster.translation = translation[s];
    }
    return state;
  }

  Csr BelongLists() const override {
    Csr lists;
    lists.offsets = Get(belong_offsets_, particles_ + 1);
    lists.indices = Get(belong_slots_, lists.offsets.back());
    return lists;
  }

  std::size_t BelongBytes() const override {
    return (particles_ + std::size_t{1} + belong_entries_) *
           sizeof(std::uint32_t);
  }

  // The passes (public only for CUDA's extended lambdas).

  GridView Grid() const {
    GridView grid = grid_;
    grid.coords = coords_.data();
    grid.node_of = node_of_.data();
    grid.node_particle = node_particle_.data();
    grid.node_is_particle = node_is_particle_.data();
    return grid;
  }

  // 1: removed_ = the damaged particles, ascending; returns their count.
  std::uint32_t DetectDamage();

  // 2, and the host's copy of the flags (CheckPositions reads it).
  void UpdateNodes(std::uint32_t removed_count);

  // 3: influenced_ = the valid slots in the removed particles' lists,
  // ascending.
  std::uint32_t FindInfluenced(std::uint32_t removed_count);

  // 4: the influenced clusters' members without the removed particles, in
  // order, one after another: vertex_particle_ (vertex v of the aggregated
  // graph), vertex_base_ (cluster i's vertices start at vertex_base_[i]).
  // Returns the vertex count.
  std::uint32_t RemoveParticles(std::uint32_t removed_count,
                                std::uint32_t influenced_count);

  // 5: the aggregated graph (membership by the sorted (cluster, particle)
  // keys), its components, and the new clusters: fresh_offsets_ /
  // fresh_members_ (rows in order of their smallest vertex, members in
  // vertex order) and fresh_parent_. Returns the new cluster count.
  std::uint32_t SplitComponents(std::uint32_t influenced_count,
                                std::uint32_t vertices);

  // 6: the new clusters' inherited attributes are read, then the
  // influenced slots turn invalid.
  void DeleteInfluenced(std::uint32_t influenced_count, std::uint32_t fresh);

  SearchView Search() const;

  // reserved_[s] = the size of live slot s (0 for the others).
  void ResetReserved();

  // 7, ours: data_parallel's rounds of proposals; target_[c] = the slot c
  // merges into, or kNone.
  void SearchRounds(std::uint32_t fresh);

  // 7, as published: one work item per member of a new cluster.
  void SearchPublished(std::uint32_t fresh, std::uint32_t entries);

  // The report's merges: row c holds target_[c] unless kNone.
  Csr Merges(std::uint32_t fresh);

  // 8: per target, its new clusters in ascending order append the members
  // it lacks, each once, in that order (added_[nc] of them from
  // extras_[extra_start_[nc]]). One item per candidate (a member of a
  // merging new cluster): a stable sort by (target, particle) puts each
  // particle's first candidate per target first, so no thread walks a
  // target's candidates alone. Returns how many new clusters merged.
  std::uint32_t Merge(std::uint32_t fresh);

  // 9: the k-th unmerged new cluster takes the k-th lowest invalid slot,
  // else a slot past the end (slot_of_[k]); the table grows to slots_next_.
  std::uint32_t AssignSlots(std::uint32_t fresh);

  // 10: each inserted cluster below min_cluster_size grows (grown_count_[u]
  // particles from grown_[grown_base_[u]]). Returns how many grew.
  std::uint32_t Expand(std::uint32_t inserted);

  // Long: one pass over the grown table's slots writing its member Csr,
  // rest positions and attributes together.
  // 8-10 written: one pass over the slots of the grown table builds its
  // member Csr, rest local positions and attributes.
  void RebuildTable(std::uint32_t influenced_count);

  // The belong lists from the table: (particle, slot) pairs in slot order,
  // sorted stably by particle.
  void RebuildBelong();

 private:
  Rows BelongRows() const {
    return Rows{belong_offsets_.data(), belong_slots_.data()};
  }
  Rows TableRows() const { return Rows{offsets_.data(), members_.data()}; }

  void UploadTable(const ClusterTable& table) {
    slots_ = static_cast<std::uint32_t>(table.slots.size());
    std::vector<std::uint32_t> offsets{0};
    std::vector<std::uint32_t> members;
    std::vector<Vec3> rest;
    std::vector<float> stiffness;
    std::vector<Quat> rotation;
    std::vector<Vec3> translation;
    for (const Cluster& cluster : table.slots) {
      members.insert(members.end(), cluster.particles.begin(),
                     cluster.particles.end());
      rest.insert(rest.end(), cluster.rest_local.begin(),
                  cluster.rest_local.end());
      offsets.push_back(static_cast<std::uint32_t>(members.size()));
      stiffness.push_back(cluster.stiffness);
      rotation.push_back(cluster.rotation);
      translation.push_back(cluster.translation);
    }
    Put(offsets_, offsets);
    Put(members_, members);
    Put(rest_, rest);
    Put(valid_, table.valid);
    Put(stiffness_, stiffness);
    Put(rotation_, rotation);
    Put(translation_, translation);
  }

  void EnsureIota(std::uint32_t n) {
    if (n <= iota_.size()) return;
    std::vector<std::uint32_t> iota(n);
    for (std::uint32_t i = 0; i < n; ++i) iota[i] = i;
    Put(iota_, iota);
  }

  // Bits that hold every value below n + 1.
  static int Bits(std::uint32_t n) {
    int bits = 1;
    while (bits < 32 && (std::uint64_t{1} << bits) <= n) ++bits;
    return bits;
  }

  template <typename T>
  void Put(Array<T>& array, const std::vector<T>& host) {
    array.Resize(host.size());
    backend_.Upload(array.data(), host.data(), host.size());
  }
  template <typename T>
  std::vector<T> Get(const Array<T>& array, std::size_t n) const {
    std::vector<T> host(n);
    backend_.Download(host.data(), array.data(), n);
    return host;
  }

  Params params_;
  bool published_search_;
  mutable B backend_;
  // The host's copy of the grid, the flags and the frame (the table lives
  // in the backend's arrays).
  State host_;
  std::uint32_t particles_ = 0;
  std::uint32_t slots_ = 0;
  std::uint32_t slots_next_ = 0;
  std::uint32_t belong_entries_ = 0;
  GridView grid_;

  Array<Coord> coords_;
  Array<std::uint32_t> node_of_, node_particle_, iota_;
  Array<std::uint8_t> node_is_particle_;
  Array<float> x_, y_, z_;
  // The table.
  Array<std::uint32_t> offsets_, members_;
  Array<Vec3> rest_, translation_;
  Array<std::uint8_t> valid_;
  Array<float> stiffness_;
  Array<Quat> rotation_;
  Array<std::uint32_t> belong_offsets_, belong_slots_;
  // The table being written.
  Array<std::uint32_t> next_offsets_, next_members_;
  Array<Vec3> next_rest_, next_translation_;
  Array<std::uint8_t> next_valid_;
  Array<float> next_stiffness_;
  Array<Quat> next_rotation_;
  // A frame's scratch.
  Array<std::uint8_t> drop_, slot_drop_, entry_drop_, fresh_drop_, rejected_;
  Array<std::uint32_t> removed_, influenced_, counts_, gathered_base_,
      gathered_, vertex_base_, vertex_particle_, vertex_cluster_, values_,
      graph_offsets_, graph_indices_, labels_, row_of_root_, fresh_parent_,
      fresh_offsets_, fresh_members_, reserved_, target_, resume_, proposal_,
      active_, next_active_, offers_, lock_, searched_, row_of_, merged_,
      added_, extra_start_, extra_base_, extras_, unmerged_, free_, slot_of_,
      unmerged_at_, grown_base_, grown_, candidates_, grown_count_,
      candidate_order_, candidate_member_, candidate_target_, extra_target_;
  Array<std::uint8_t> candidate_drop_;
  Array<std::uint64_t> keys_, candidate_keys_;
  Array<float> fresh_stiffness_;
  Array<Quat> fresh_rotation_;
  Array<Vec3> fresh_translation_;
};

}  // namespace adj::fracture::flat

// The steps' definitions, by stage.
#include "algorithms/fracture/flat_components-inl.h"
#include "algorithms/fracture/flat_insert-inl.h"
#include "algorithms/fracture/flat_merge-inl.h"
#include "algorithms/fracture/flat_removal-inl.h"

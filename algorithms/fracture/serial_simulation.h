#pragma once

// The published update stage by stage on one thread, with the stages that
// the concurrent variants replace left virtual. Internal to the family.

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/fracture/belong_lists.h"
#include "algorithms/fracture/fracture.h"
#include "algorithms/fracture/topology.h"

namespace adj::fracture::detail {

// The printed merge search (no break) is a flag of the same class:
// everything else is shared.
class SerialSimulation : public Simulation {
 public:
  SerialSimulation(const State& initial, const Params& params, bool printed);
  ~SerialSimulation() override = default;

  void Step(const Points& positions, FrameReport& report) override;

  State Snapshot() const override { return state_; }
  Csr BelongLists() const override;
  std::size_t BelongBytes() const override { return belong_->Bytes(); }

 protected:
  // 1. Every intact particle with an intact neighbour farther than
  // damage_distance; removed_ ascending.
  virtual void DetectDamage(const Points& positions);
  // Step 1's test of one particle: intact, with an intact neighbour
  // farther than sqrt(limit) (limit = damage_distance squared, in float).
  bool Damaged(std::uint32_t p, const Points& positions, float limit) const;

  // 2.
  void UpdateNodes();

  // 3. The valid slots in the removed particles' lists, ascending.
  void FindInfluenced();

  // 4. The removed particles in a hash set; each influenced list flagged by
  // a lookup per member and compacted in place.
  virtual void RemoveParticles();

  // 5. One connected-components call on the aggregated graph: member k of
  // the i-th influenced cluster is vertex base[i] + k; an edge joins two
  // grid neighbours of the same cluster. Components in order of their
  // smallest vertex are the new clusters (fresh_: rows of particles).
  void SplitComponents();
  // Its first half: graph_ and base_.
  virtual void BuildGraph();

  // 6. The influenced clusters leave the table and every belong list; a
  // removed particle's list empties (it held influenced clusters only).
  void DeleteInfluenced();

  // 7. For each new cluster c: i in c, j an intact neighbour of i, nc a live
  // cluster in j's list, and reserved(nc) + size(c) < max_cluster_size: c
  // merges into nc, which reserves size(c). serial stops at the first;
  // serial_printed goes on through every loop.
  virtual void SearchMergeTargets(Csr& merges);

  // 8. nc gains the members of c it lacks, in c's order; every changed
  // target's rest local positions are recomputed once. Returns how many new
  // clusters merged.
  std::uint32_t Merge(const Csr& merges);

  // 9. Each unmerged new cluster takes the lowest free slot, else a new one.
  void InsertUnmerged(const Csr& merges);

  // 10. Returns how many clusters grew.
  std::uint32_t Expand();

  struct Inherited {
    float stiffness;
    Quat rotation;
    Vec3 translation;
  };

  State state_;
  Params params_;
  bool printed_;
  Topology topology_;
  std::unique_ptr<BelongStore> belong_;
  const connected_components::Variant* components_;
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>>
      free_slots_;
  // Per particle: its index in the cluster being wired (kNone otherwise),
  // and a stamp marking the members of the cluster being merged into or
  // expanded.
  std::vector<std::uint32_t> local_index_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t stamp_value_ = 0;
  std::vector<std::uint32_t> removed_;
  std::vector<std::uint8_t> slot_mark_;
  std::vector<std::uint32_t> influenced_;
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> base_;
  Csr graph_;
  connected_components::Components labels_;
  std::vector<std::uint32_t> cursor_;
  Csr fresh_;
  std::vector<std::uint32_t> fresh_parent_;
  std::vector<Inherited> inherited_;
  std::vector<std::uint32_t> reserved_;
  std::vector<std::uint32_t> changed_;
  std::vector<std::uint32_t> inserted_;
  std::vector<std::uint32_t> candidates_;
  std::vector<std::uint32_t> free_neighbors_;
};

}  // namespace adj::fracture::detail

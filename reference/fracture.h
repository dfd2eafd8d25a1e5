#pragma once

// The fracture oracle: one frame of the cluster-topology update recomputed
// from scratch by brute force (no belong lists, no hash set, no
// aggregated graph: each cluster's components by its own search), on its
// own plain model. Written from the contract in docs/fracture.md, apart
// from algorithms/fracture.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/points.h"

namespace adj::reference::fracture {

struct Cluster {
  bool valid = false;
  std::vector<std::uint32_t> members;
  // Rest local positions, one per member.
  std::vector<std::array<float, 3>> local;
  float stiffness = 1;
  std::array<float, 4> rotation{1, 0, 0, 0};
  std::array<float, 3> translation{0, 0, 0};
};

struct World {
  std::array<std::uint32_t, 3> grid{0, 0, 0};
  std::vector<std::array<std::uint32_t, 3>> at;  // particle -> node coordinate
  std::vector<bool> intact;                      // per particle
  std::vector<Cluster> clusters;                 // by slot
  std::uint64_t frame = 0;
  // Optional: the particle at each node (x + nx (y + ny z)), -1 for none;
  // when empty, lookups search every particle.
  std::vector<std::int64_t> particle_at;
};

// Fills world.particle_at, so that neighbour lookups are O(1) on large
// worlds.
void Index(World& world);

// How step 7 picks merge targets when Step is given no choice.
//   - kFirstFit: new clusters in order, each taking the first fit of the
//     search order (members in order, their intact neighbours in the
//     contract's order, the live clusters holding the neighbour ascending);
//   - kPrinted: the same loops without the break: every fit is taken;
//   - kPriorityRounds: rounds until no new cluster proposes: each new
//     cluster not yet merged proposes to its first fit in search order on
//     the reserved sizes the round starts with (none: it stays unmerged);
//     then each target takes its proposers in ascending order, each one
//     that still fits.
enum class MergeSearch { kFirstFit, kPrinted, kPriorityRounds };

struct Rules {
  float damage_distance = 0;
  std::uint32_t max_size = 0;
  std::uint32_t min_size = 0;
  bool all26 = false;            // 26 neighbours instead of 6
  bool random_expansion = true;  // else breadth-first
  std::uint64_t seed = 0;
  MergeSearch search = MergeSearch::kFirstFit;
};

// A new cluster: its parent's slot and its members in the parent's order.
struct Fresh {
  std::uint32_t parent = 0;
  std::vector<std::uint32_t> members;
};

struct Frame {
  std::vector<std::uint32_t> removed;     // ascending
  std::vector<std::uint32_t> influenced;  // ascending slots
  std::vector<Fresh> fresh;               // canonical order
  // Per fresh cluster, the slots it merged into (the first-fit search's
  // choice, or the one given to Step).
  std::vector<std::vector<std::uint32_t>> targets;
  World after;
};

// The intact particles next to p (the 6 or 26 nodes around it), in the
// contract's order.
std::vector<std::uint32_t> IntactNeighbors(const World& world, bool all26,
                                           std::uint32_t p);

// Rest local positions of `members` (the contract's rule).
std::vector<std::array<float, 3>> RestLocal(
    const World& world, const std::vector<std::uint32_t>& members);

// The live clusters of `mid` (a world after stage 6, Split's) holding an
// intact neighbour of one of `members`: where they may merge. Ascending.
std::vector<std::uint32_t> Candidates(
    const World& mid, bool all26, const std::vector<std::uint32_t>& members);

// Stages 1 to 6 only: the world after the influenced clusters were deleted.
Frame Split(const World& before, const Points& positions, const Rules& rules);

// One whole frame. With `choice` null the merge targets are rules.search's;
// else choice[c] lists the slots fresh
// cluster c merges into, applied in order.
Frame Step(const World& before, const Points& positions, const Rules& rules,
           const std::vector<std::vector<std::uint32_t>>* choice = nullptr);

}  // namespace adj::reference::fracture

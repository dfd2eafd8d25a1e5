#pragma once

// Internal to the family: the colourings that cut triplets into sets.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// NvCloth's AdjacencyQuerier over the triplets' particles: row p lists the
// triplets naming p (descending), max_adjacent is maxAdjacentCount.
triangle_adjacency::Adjacency TripletAdjacency(
    std::span<const Triplet> triplets, std::size_t particle_count);
// Greedy smallest-free colouring, visiting the triplets breadth first over
// shared particles: a connected front of the mesh, whatever order its
// triplets and particle ids came in, which keeps greedy near maxAdj colours
// on permuted meshes, where input order (NvCloth's) spreads them. Where
// maxAdj <= kMaskedMaxAdjacent the front is one of particles, and each
// particle's uncoloured triplets (its fan) are coloured in its row's order
// or most saturated first (most colours taken around them): fewer colours
// on permuted grids, at more cost, and on natural grids sets whose banks
// bank_matched_warp's SpreadBanks could no longer spread.
enum class FanOrder { kRowOrder, kMostSaturated };
struct Colouring {
  std::vector<std::uint32_t> colour;  // per input triplet
  std::vector<std::uint32_t> order;   // the breadth-first visiting order
  std::uint32_t colours = 0;
};
Colouring BreadthFirstColouring(std::span<const Triplet> triplets,
                                const triangle_adjacency::Adjacency& adjacency,
                                FanOrder fan_order);
// The same greedy in input order (NvCloth's visiting order; `order` is the
// input order), on 64-bit colour masks: only for maxAdj <=
// kMaskedMaxAdjacent, where greedy needs at most 3 (maxAdj - 1) + 1 <= 64
// colours.
inline constexpr std::uint32_t kMaskedMaxAdjacent = 21;
Colouring InputOrderColouring(std::span<const Triplet> triplets,
                              std::size_t particle_count);
// NvCloth's best fit in input order (warp(): each triplet to the set where
// its bank replays grow least, by the model reset every 32 triplets, the
// first such), on colour masks: among the free colours below `limit`, else
// the smallest free one. Each colour's triplets in input order are then its
// warps, as the model saw them; `replays` is their replays (SetReplays
// summed over the sets). Only for maxAdj <= kMaskedMaxAdjacent.
Colouring WarpModelColouring(std::span<const Triplet> triplets,
                             std::size_t particle_count, std::uint32_t limit,
                             std::uint64_t& replays);
// Calls f(v) for every triplet v != t sharing a particle with t (a triplet
// sharing two particles comes twice).
template <class F>
void ForEachNeighbor(std::span<const Triplet> triplets,
                     const triangle_adjacency::Adjacency& adjacency,
                     std::uint32_t t, F&& f) {
  for (int k = 0; k < 3; ++k) {
    for (const std::uint32_t v : adjacency.csr.Row(triplets[t][k])) {
      if (v != t) f(v);
    }
  }
}

}  // namespace adj::triplet_schedule

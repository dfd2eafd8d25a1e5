#pragma once

// Internal to the family: the peers' colourings of the triplets (two
// triplets conflict when they share a particle), which the peer rows turn
// into sets (peer_schedules.cc). Each needs its library at build time and
// otherwise throws Unavailable.

#include <cstddef>
#include <span>
#include <string_view>

#include "algorithms/common/csr.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// The vertex orderings ColPack's greedy colourings take, by its names.
enum class ColPackOrdering {
  kNatural,
  kLargestFirst,
  kSmallestLast,
  kIncidenceDegree,
  kDynamicLargestFirst,
};
// "NATURAL", "LARGEST_FIRST", ...: the name ColPack's Coloring() takes.
std::string_view ColPackOrderingName(ColPackOrdering ordering);

// ColPack's distance-1 colouring of the conflict graph (built from the
// particles' triplet lists and handed over in ADOL-C's compressed rows),
// GraphColoringInterface::Coloring(ordering, "DISTANCE_ONE").
Colouring ColPackDistanceOne(std::span<const Triplet> triplets,
                             const triangle_adjacency::Adjacency& adjacency,
                             ColPackOrdering ordering);
// ColPack's partial distance-2 colouring of the columns of the
// particle x triplet pattern (two columns conflict when a row holds both):
// the same conflicts without building the conflict graph,
// BipartiteGraphPartialColoringInterface::PartialDistanceTwoColoring(
// ordering, "COLUMN_PARTIAL_DISTANCE_TWO"). ColPack takes no dynamic
// largest-first ordering here (Error).
Colouring ColPackPartialDistanceTwo(
    std::span<const Triplet> triplets, std::size_t particle_count,
    const triangle_adjacency::Adjacency& adjacency, ColPackOrdering ordering);
// Boost.Graph's sequential_vertex_coloring of the conflict graph as an
// undirected adjacency_list, in its default (natural) vertex order.
Colouring BoostSequentialColouring(
    std::span<const Triplet> triplets,
    const triangle_adjacency::Adjacency& adjacency);

// Which peer colouring a peer row schedules by (its recipe).
struct PeerColouringRecipe {
  enum Library {
    kColPackDistanceOne,
    kColPackPartialDistanceTwo,
    kBoostSequential
  } library = kColPackDistanceOne;
  ColPackOrdering ordering = ColPackOrdering::kNatural;
};

// The peer rows' two targets: the peer's colours as sets, padded into
// batches (simd) or laid into warps by bfs_banked_warp's layout (warp).
// With `trusted` the simd schedule skips the input check (the caller made
// it), as the other simd rows' run_trusted.
void PeerSimdSchedule(std::span<const Triplet> input,
                      std::size_t particle_count, unsigned width, Schedule& out,
                      const PeerColouringRecipe& recipe, bool trusted);
void PeerWarpSchedule(std::span<const Triplet> input,
                      std::size_t particle_count, unsigned width, Schedule& out,
                      const PeerColouringRecipe& recipe);
// A row's run: the schedule of its recipe.
template <PeerColouringRecipe kRecipe>
void PeerSimd(std::span<const Triplet> input, std::size_t particle_count,
              unsigned width, Schedule& out) {
  PeerSimdSchedule(input, particle_count, width, out, kRecipe,
                   /*trusted=*/false);
}
template <PeerColouringRecipe kRecipe>
void PeerSimdTrusted(std::span<const Triplet> input, std::size_t particle_count,
                     unsigned width, Schedule& out) {
  PeerSimdSchedule(input, particle_count, width, out, kRecipe,
                   /*trusted=*/true);
}
template <PeerColouringRecipe kRecipe>
void PeerWarp(std::span<const Triplet> input, std::size_t particle_count,
              unsigned width, Schedule& out) {
  PeerWarpSchedule(input, particle_count, width, out, kRecipe);
}

// The conflict graph: row t lists the other triplets sharing a particle
// with triplet t, once each, in the order the particles' rows meet them.
Csr ConflictGraph(std::span<const Triplet> triplets,
                  const triangle_adjacency::Adjacency& adjacency);

}  // namespace adj::triplet_schedule

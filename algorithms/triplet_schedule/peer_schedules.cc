// The peer rows' schedules: a peer's colouring of the triplets (the
// library does the colouring, peer_colourings.h), each colour one set, laid
// out by the suite as its own rows lay theirs: a simd schedule pads each set
// to whole batches (PadSets), a warp schedule lays each set into warps by
// bfs_banked_warp's layout, so that sets, padding and replays compare with
// the suite's rows on the same footing.
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/padding.h"
#include "algorithms/triplet_schedule/peer_colourings.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

Csr ConflictGraph(std::span<const Triplet> triplets,
                  const triangle_adjacency::Adjacency& adjacency) {
  Csr conflicts;
  conflicts.offsets.assign(1, 0);
  std::vector<std::uint32_t> seen(triplets.size(),
                                  std::numeric_limits<std::uint32_t>::max());
  for (std::uint32_t t = 0; t < triplets.size(); ++t) {
    seen[t] = t;
    ForEachNeighbor(triplets, adjacency, t, [&](std::uint32_t v) {
      if (seen[v] == t) return;
      seen[v] = t;
      conflicts.indices.push_back(v);
    });
    conflicts.offsets.push_back(
        static_cast<std::uint32_t>(conflicts.indices.size()));
  }
  return conflicts;
}

namespace {

Colouring PeerColouring(std::span<const Triplet> triplets,
                        std::size_t particle_count,
                        const triangle_adjacency::Adjacency& adjacency,
                        const PeerColouringRecipe& recipe) {
  switch (recipe.library) {
    case PeerColouringRecipe::kColPackDistanceOne:
      return ColPackDistanceOne(triplets, adjacency, recipe.ordering);
    case PeerColouringRecipe::kColPackPartialDistanceTwo:
      return ColPackPartialDistanceTwo(triplets, particle_count, adjacency,
                                       recipe.ordering);
    case PeerColouringRecipe::kBoostSequential:
      return BoostSequentialColouring(triplets, adjacency);
  }
  throw Error("unknown peer colouring");
}

}  // namespace

void PeerSimdSchedule(std::span<const Triplet> input,
                      std::size_t particle_count, unsigned width, Schedule& out,
                      const PeerColouringRecipe& recipe, bool trusted) {
  if (trusted) {
    CheckSimdArguments(particle_count, width, 32);
  } else {
    CheckSimdInput(input, particle_count, width, 32);
  }
  out.set_sizes.clear();
  std::vector<Triplet> ordered;
  if (!input.empty()) {
    const triangle_adjacency::Adjacency adjacency =
        TripletAdjacency(input, particle_count);
    const Colouring colouring =
        PeerColouring(input, particle_count, adjacency, recipe);
    const std::vector<std::uint32_t> members =
        GroupByColour(colouring, out.set_sizes);
    ordered.reserve(members.size());
    for (const std::uint32_t t : members) ordered.push_back(input[t]);
  }
  out.width = width;
  PadSets(ordered, particle_count, out);
  out.index_bits = 32;
  out.threads = 1;
}

void PeerWarpSchedule(std::span<const Triplet> input,
                      std::size_t particle_count, unsigned width, Schedule& out,
                      const PeerColouringRecipe& recipe) {
  BfsBankedSchedule(
      input, particle_count, width, out,
      {.colour = [&](const triangle_adjacency::Adjacency& adjacency) {
        return PeerColouring(input, particle_count, adjacency, recipe);
      }});
}

}  // namespace adj::triplet_schedule

// Ours: bfs_banked_warp's sets (the same colouring), with each large set's
// full warps built whole instead of filled triplet by triplet
// (BuildWarpsWhole, built_warps_layout.cc): fewer bank replays, at more
// time.
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void BfsBuiltWarp(std::span<const Triplet> input, std::size_t particle_count,
                  unsigned width, Schedule& out) {
  BfsBankedSchedule(input, particle_count, width, out,
                    {.builder = &BuildWarpsWhole});
}

}  // namespace adj::triplet_schedule

// Ours: bfs_walk_warp with its sets laid out in parallel, as
// bfs_built_warp_openmp does for bfs_built_warp. Every set's layout (the
// walk included: its random numbers are seeded by the set) depends on that
// set alone, so the schedule is bfs_walk_warp's on every thread count; the
// colouring and the spreading stay serial.
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void BfsWalkWarpOpenMp(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out) {
  BfsBankedSchedule(input, particle_count, width, out,
                    {.builder = &BuildWarpsWalked,
                     .threads = LayoutThreads(input.size()),
                     .spread_passes = 1});
}

}  // namespace adj::triplet_schedule

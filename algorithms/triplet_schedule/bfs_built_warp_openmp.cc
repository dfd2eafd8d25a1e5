// Ours: bfs_built_warp with its sets laid out in parallel, one set per
// OpenMP thread at a time. The colouring stays serial (breadth-first order
// is a chain of dependent choices), so what the threads share is the
// layout, which is most of bfs_built_warp's time on meshes (armadillo,
// refined_elephant: 130-160 cycles per triplet of some 200-270). Every set's
// layout depends on that set alone, so the schedule is bfs_built_warp's on
// every thread count.
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void BfsBuiltWarpOpenMp(std::span<const Triplet> input,
                        std::size_t particle_count, unsigned width,
                        Schedule& out) {
  BfsBankedSchedule(
      input, particle_count, width, out,
      {.builder = &BuildWarpsWhole, .threads = LayoutThreads(input.size())});
}

}  // namespace adj::triplet_schedule

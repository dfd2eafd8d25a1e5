// Ours: bfs_built_warp with its sets laid out in parallel, one set per
// OpenMP thread at a time. The colouring stays serial (breadth-first order
// is a chain of dependent choices), so what the threads share is the
// layout, which is most of bfs_built_warp's time on meshes (armadillo,
// refined_elephant: 130-160 cycles per triplet of some 200-270). Every set's
// layout depends on that set alone, so the schedule is bfs_built_warp's on
// every thread count.
#include <omp.h>

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {
namespace {

// Below this many triplets the sets run on one thread. triplet_schedule
// bench at a1ce85c (2-vCPU EPYC, one quick-sweep run), bfs_built_warp's
// time over this one's on two threads: 0.88 on the discs of 1984 triplets
// (64 sets of about 31), 0.93-1.03 on the grids of 512, 1.06-1.11 on those
// of 2048, 1.01-1.03 on elephant (5558), 1.11-1.79 from 8192 on.
constexpr std::size_t kThreadedTriplets = 2048;

}  // namespace

void BfsBuiltWarpOpenMp(std::span<const Triplet> input,
                        std::size_t particle_count, unsigned width,
                        Schedule& out) {
  BfsBankedSchedule(
      input, particle_count, width, out, &BuildWarpsWhole,
      input.size() >= kThreadedTriplets ? omp_get_max_threads() : 1);
}

}  // namespace adj::triplet_schedule

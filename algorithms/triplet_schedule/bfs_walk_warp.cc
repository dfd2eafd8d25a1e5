// Ours: bfs_built_warp with each set's banks spread first (one pass of
// SpreadBanks after the colouring), and a random walk where a warp's greedy
// build leaves lanes without a conflict-free triplet (BuildWarpsWalked).
// Spreading evens the sets' bank counts, so that conflict-free warps exist
// for longer into each set, and the walk finds more of them than greedy
// with its one-step repair (what each gains:
// docs/triplet_schedule.md#decisions-and-dead-ends).
// Where the input-order colouring it keeps puts each set's particles on
// half the banks, as on the natural grids with alternating diagonals (2 x
// ideal whatever the layout), it takes WarpModelColouring's sets instead
// (NvCloth's best fit by its warp model, on colour masks), laid out as
// that model saw them (BfsBankedSchedule).
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void BfsWalkWarp(std::span<const Triplet> input, std::size_t particle_count,
                 unsigned width, Schedule& out) {
  BfsBankedSchedule(input, particle_count, width, out,
                    {.builder = &BuildWarpsWalked, .spread_passes = 1});
}

}  // namespace adj::triplet_schedule

// Ours: colour first (input order where that takes at most maxAdj + 1
// colours, else breadth first), then lay each colour out in warps by
// NvCloth's bank model (BfsBankedSchedule, banked_layout.cc).
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void BfsBankedWarp(std::span<const Triplet> input, std::size_t particle_count,
                   unsigned width, Schedule& out) {
  BfsBankedSchedule(input, particle_count, width, out, BfsOptions{});
}

}  // namespace adj::triplet_schedule

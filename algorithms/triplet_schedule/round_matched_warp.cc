// Ours: bank_matched_warp's colouring, then each set that its matcher left
// more than 1 % above SetReplaysFloor is laid out again, round by round
// (RoundMatchedLayout, round_matched_layout.cc), and keeps the better of
// the two layouts.
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void RoundMatchedWarp(std::span<const Triplet> input,
                      std::size_t particle_count, unsigned width,
                      Schedule& out) {
  BankMatchedSchedule(input, particle_count, width, out, &RoundMatchedLayout);
}

}  // namespace adj::triplet_schedule

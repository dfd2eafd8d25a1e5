// Ours: colour first, remove colours, spread the banks, then match each
// set's triplets to warps bank by bank (BankMatchedSchedule,
// bank_matched_layout.cc).
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {

void BankMatchedWarp(std::span<const Triplet> input, std::size_t particle_count,
                     unsigned width, Schedule& out) {
  BankMatchedSchedule(input, particle_count, width, out, nullptr);
}

}  // namespace adj::triplet_schedule

#pragma once

// Internal to the family: the input checks every scheduler runs first.

#include <cstddef>
#include <span>

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// The schedulers' input checks: width for the table, the particle count
// and dummies within index_bits, then Check.
// The simd schedulers' O(1) checks (width, particle count and dummies
// within index_bits), which their trusted entries still make.
void CheckSimdArguments(std::size_t particle_count, unsigned width,
                        unsigned index_bits);
void CheckSimdInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits);
void CheckWarpInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits);

// The warp schedulers' opening: checks the input, empties out and records
// width, index_bits and 1 thread.
void StartWarpSchedule(std::span<const Triplet> triplets,
                       std::size_t particle_count, unsigned width,
                       unsigned index_bits, Schedule& out);

}  // namespace adj::triplet_schedule

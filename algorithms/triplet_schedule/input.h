#pragma once

// Internal to the family: the input checks every scheduler runs first.

#include <cstddef>
#include <span>

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// Shared input checks: width for the table, every particle index below
// particle_count (naming the first bad triplet), and with index_bits == 16
// every index, dummy and weight within uint16.
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

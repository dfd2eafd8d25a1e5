#pragma once

// Internal to the family: colours to sets, and sets to padded batches.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// The triplets of each colour as one set, colour by colour, each in
// colouring.order's order: sets `set_sizes` (one per colour) and returns the
// triplet ids set after set; set c starts at the sum of the sizes before it.
std::vector<std::uint32_t> GroupByColour(const Colouring& colouring,
                                         std::vector<std::uint32_t>& set_sizes);
// out.triplets = each set of `ordered` (sizes in out.set_sizes) followed by
// its dummies up to a multiple of out.width; sets out.padding.
void PadSets(std::span<const Triplet> ordered, std::size_t particle_count,
             Schedule& out);

}  // namespace adj::triplet_schedule

#pragma once

// Internal to the family: the bank model of NvCloth's calculateNumReplays
// (docs/sources/nvcloth-triplet-scheduler.md), the replays it counts and the
// floors under them.

#include <cstdint>
#include <span>

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// The bank model of calculateNumReplays
// (docs/sources/nvcloth-triplet-scheduler.md): shared memory's 32 banks, and
// the chunk of 32 triplets (a warp) it counts in, whatever the schedule's
// width.
inline constexpr std::uint32_t kBanks = 32;

// NvCloth's calculateNumReplays on one set's final layout: per chunk of 32
// from the set's start and per slot, the most triplets on one bank (p & 31).
std::uint64_t SetReplays(std::span<const Triplet> set);
// A floor under SetReplays for every layout of the set: per slot, each of
// the ceil(n / 32) chunks replays at least once and at least as often as it
// holds triplets on any one bank, so summed over the chunks the slot
// replays at least max(chunks, most triplets on one bank) times. A layout
// that reaches it cannot be improved.
std::uint64_t SetReplaysFloor(std::span<const Triplet> set);
// SetReplaysFloor summed over the colours of `colour` (one set each), and
// in `ideal` their ideal replays (3 per chunk of 32).
std::uint64_t ColouringReplaysFloor(std::span<const Triplet> triplets,
                                    std::span<const std::uint32_t> colour,
                                    std::uint32_t colours,
                                    std::uint64_t& ideal);

}  // namespace adj::triplet_schedule

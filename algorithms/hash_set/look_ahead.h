#pragma once

// Internal to the family: bulk operations on a linear-probing table that
// touch each key's home slot a few keys ahead of its probe.
//
// Why: a table of millions of slots lives in memory, not cache, and each
// probe starts with a miss on its home line. One probe after another waits
// for each miss in turn (a probe's branches depend on the loaded slots, so
// the processor cannot run far ahead), while prefetching the lines of the
// next keys lets those misses overlap.

#include <cstddef>
#include <cstdint>
#include <span>

#include "algorithms/hash_set/hash_set.h"

namespace adj::hash_set {

// Keys whose home lines are in flight at once: a miss takes a few hundred
// cycles and a probe at 75 % load a few dozen, so some ten keys ahead
// cover it; more only evicts lines before their probe.
inline constexpr std::size_t kLookAhead = 16;

// Calls visit(i) for i in [begin, end), each after the home slot of the
// key kLookAhead places on has been prefetched from `slots` (for writing
// when `for_write`).
template <bool for_write, typename Slot, typename Visit>
void VisitLookingAhead(std::span<const std::uint32_t> keys, std::size_t begin,
                       std::size_t end, const Slot* slots, std::size_t mask,
                       Visit&& visit) {
  for (std::size_t i = begin; i < end; ++i) {
    if (i + kLookAhead < end) {
      __builtin_prefetch(slots + HomeSlot(keys[i + kLookAhead], mask),
                         for_write ? 1 : 0);
    }
    visit(i);
  }
}

}  // namespace adj::hash_set

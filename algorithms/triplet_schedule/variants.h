#pragma once

// Internal to the family: the implementations behind the tables (tests
// name them directly; everyone else goes through the tables).

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// The implementations, one file each; call them through the tables.
ScheduleFn NvClothSimd;
ScheduleFn NvClothSimdLegacy;
ScheduleFn NvClothSimdTrusted;
ScheduleFn NvClothSimdLegacyTrusted;
ScheduleFn StampedSimdTrusted;
ScheduleFn NvClothWarp;
ScheduleFn NvClothWarpForward;
ScheduleFn StampedSimd;
ScheduleFn BfsBankedWarp;
ScheduleFn BfsBuiltWarp;
ScheduleFn BfsBuiltWarpOpenMp;
ScheduleFn BfsWalkWarp;
ScheduleFn BfsWalkWarpOpenMp;
ScheduleFn BankMatchedWarp;
ScheduleFn RoundMatchedWarp;
ScheduleFn TransversalWarp;

}  // namespace adj::triplet_schedule

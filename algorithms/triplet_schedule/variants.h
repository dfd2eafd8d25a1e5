#pragma once

// Internal to the family: the implementations behind the tables (tests
// name them directly; everyone else goes through the tables).

#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// The implementations of their own, one file each (the recipes are
// layouts.h's Recipe); call them through the tables.
ScheduleFn NvClothSimd;
ScheduleFn NvClothSimdLegacy;
ScheduleFn NvClothSimdTrusted;
ScheduleFn NvClothSimdLegacyTrusted;
ScheduleFn StampedSimdTrusted;
ScheduleFn NvClothWarp;
ScheduleFn NvClothWarpForward;
ScheduleFn StampedSimd;

}  // namespace adj::triplet_schedule

#pragma once

// Each family's outside check (registry/outside_check.h), one file each:
// outside_<family>.cc, which defines its entry of OutsideChecks().
// Internal to registry/.

#include "registry/outside_check.h"

namespace adj::registry {

// Each family's entry of OutsideChecks(): what it reads, and its check.
OutsideCheck CompactionOutsideCheck();
OutsideCheck ConnectedComponentsOutsideCheck();
OutsideCheck FractureOutsideCheck();
OutsideCheck HashGridOutsideCheck();
OutsideCheck HashSetOutsideCheck();
OutsideCheck PrefixSumOutsideCheck();
OutsideCheck SphOutsideCheck();
OutsideCheck TriangleAdjacencyOutsideCheck();
OutsideCheck TripletCollideOutsideCheck();
OutsideCheck TripletScheduleOutsideCheck();

}  // namespace adj::registry

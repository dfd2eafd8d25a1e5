#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace adj::simd {

// Highway targets compiled into the suite that this CPU can run, best first.
// Tests run every SIMD variant once per target (hwy::SetSupportedTargetsForTest
// with one of these), so a bug in a narrow target cannot hide behind AVX-512.
std::vector<std::int64_t> RunnableTargets();

std::string TargetName(std::int64_t target);

// The target dynamic dispatch picks on this CPU (what benchmarks measure).
std::string BestTargetName();

// Restricts dispatch to `target` (0: back to every supported target). The next
// HWY_DYNAMIC_DISPATCH call re-selects.
void ForceTarget(std::int64_t target);

}  // namespace adj::simd

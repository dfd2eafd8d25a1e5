#include "algorithms/common/simd.h"

#include <hwy/targets.h>

namespace adj::simd {

std::vector<std::int64_t> RunnableTargets() {
  // Compiled with the same flags as every dispatched kernel of the suite, so
  // HWY_TARGETS here is the set the kernels were generated for.
  return hwy::SupportedAndGeneratedTargets();
}

std::string TargetName(std::int64_t target) { return hwy::TargetName(target); }

std::string BestTargetName() {
  const auto targets = RunnableTargets();
  return targets.empty() ? "none" : TargetName(targets.front());
}

void ForceTarget(std::int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
}

}  // namespace adj::simd

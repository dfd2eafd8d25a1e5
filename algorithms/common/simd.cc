#include "algorithms/common/simd.h"

#include <hwy/targets.h>

namespace adj::simd {

std::vector<std::int64_t> RunnableTargets() {
  // Compiled with the same flags as every dispatched kernel of the suite, so
  // HWY_TARGETS here is the set the kernels were generated for. Read once,
  // before any ForceTarget: Highway's own list shrinks to the forced target,
  // and a loop that asked again after forcing would test only that one.
  static const std::vector<std::int64_t> targets =
      hwy::SupportedAndGeneratedTargets();
  return targets;
}

std::string TargetName(std::int64_t target) { return hwy::TargetName(target); }

std::string BestTargetName() {
  const auto targets = RunnableTargets();
  return targets.empty() ? "none" : TargetName(targets.front());
}

void ForceTarget(std::int64_t target) {
  RunnableTargets();  // the full list is read before the first restriction
  hwy::SetSupportedTargetsForTest(target);
}

}  // namespace adj::simd

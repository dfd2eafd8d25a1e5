// simd_native: simd4's pass at the native float lane count of the Highway
// target dispatch selects (8 on AVX2, 16 on AVX-512, 4 on SSE4, 1 on
// HWY_SCALAR), on a simd schedule of that width (NativeSimdWidth()). Wider
// batches than 4 float4 rows do not transpose cheaply, so particles and
// weights are fetched with GatherIndex, one coordinate at a time.
#include <cstddef>

#include "algorithms/triplet_collide/triplet_collide.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/triplet_collide/simd_native.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>
//
#include "algorithms/triplet_collide/collide-inl.h"
#include "algorithms/triplet_collide/variants.h"

HWY_BEFORE_NAMESPACE();
namespace adj::triplet_collide::HWY_NAMESPACE {

unsigned NativeLanes() {
  return static_cast<unsigned>(hn::Lanes(hn::ScalableTag<float>()));
}

void SimdNativeKernel(const Triplet* triplets, std::size_t count,
                      const Weight* weights, const Shapes& shapes,
                      Particle* particles) {
  CollideBatches<Fetch::kGather>(hn::ScalableTag<float>(), triplets, count,
                                 weights, shapes, particles);
}

}  // namespace adj::triplet_collide::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::triplet_collide {

HWY_EXPORT(NativeLanes);
HWY_EXPORT(SimdNativeKernel);

unsigned NativeSimdWidth() { return HWY_DYNAMIC_DISPATCH(NativeLanes)(); }

void SimdNativeCollide(const triplet_schedule::Schedule& schedule,
                       std::span<const Weight> weights, const Shapes& shapes,
                       std::span<Particle> particles) {
  Check(schedule, weights, shapes, particles);
  SimdNativeCollideTrusted(schedule, weights, shapes, particles);
}

void SimdNativeCollideTrusted(const triplet_schedule::Schedule& schedule,
                              std::span<const Weight> weights,
                              const Shapes& shapes,
                              std::span<Particle> particles) {
  // Asked each call: tests switch targets between calls.
  CheckSimdLayout(schedule, NativeSimdWidth(), "simd_native");
  if (schedule.triplets.empty()) return;
  HWY_DYNAMIC_DISPATCH(SimdNativeKernel)
  (schedule.triplets.data(), schedule.triplets.size(), weights.data(), shapes,
   particles.data());
}

}  // namespace adj::triplet_collide
#endif  // HWY_ONCE

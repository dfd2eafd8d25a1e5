// simd4: NvCloth's SwCollision<Simd4f>::collideVirtualParticles on a simd
// schedule of width 4. Per batch of 4 triplets: 12 particle float4 loads and
// 4 weight float4 loads, transposed to SoA lanes; 4 points interpolated and
// collided at once; the colliding lanes scattered. Highway, dynamic
// dispatch; 4 lanes of 128 bits on every x86 target (AVX2 and AVX-512
// included, as NvCloth keeps Simd4f there), 1 lane at a time on
// HWY_SCALAR (a batch's triplets are independent, so any split is exact).
#include <cstddef>

#include "algorithms/triplet_collide/triplet_collide.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "algorithms/triplet_collide/simd4.cc"
#include <hwy/foreach_target.h>  // re-includes this file once per target
#include <hwy/highway.h>
//
#include "algorithms/triplet_collide/collide-inl.h"
#include "algorithms/triplet_collide/variants.h"

HWY_BEFORE_NAMESPACE();
namespace adj::triplet_collide::HWY_NAMESPACE {

void Simd4Kernel(const Triplet* triplets, std::size_t count,
                 const Weight* weights, const Shapes& shapes,
                 Particle* particles) {
  using D = hn::CappedTag<float, 4>;
  constexpr Fetch kFetch =
      hn::MaxLanes(D()) == 4 ? Fetch::kTranspose4 : Fetch::kGather;
  CollideBatches<kFetch>(D(), triplets, count, weights, shapes, particles);
}

}  // namespace adj::triplet_collide::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace adj::triplet_collide {

HWY_EXPORT(Simd4Kernel);

void Simd4Collide(const triplet_schedule::Schedule& schedule,
                  std::span<const Weight> weights, const Shapes& shapes,
                  std::span<Particle> particles) {
  Check(schedule, weights, shapes, particles);
  Simd4CollideTrusted(schedule, weights, shapes, particles);
}

void Simd4CollideTrusted(const triplet_schedule::Schedule& schedule,
                         std::span<const Weight> weights, const Shapes& shapes,
                         std::span<Particle> particles) {
  CheckSimdLayout(schedule, 4, "simd4");
  if (schedule.triplets.empty()) return;
  HWY_DYNAMIC_DISPATCH(Simd4Kernel)
  (schedule.triplets.data(), schedule.triplets.size(), weights.data(), shapes,
   particles.data());
}

}  // namespace adj::triplet_collide
#endif  // HWY_ONCE

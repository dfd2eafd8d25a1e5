// The per-target SIMD core of simd4 and simd_native: one batch of triplets
// as lanes, the operations of triplet_collide.h lane-wise (Mul, Add, Div,
// Sqrt and selects; never MulAdd), then a scalar scatter of the colliding
// lanes. Highway's -inl.h idiom: each including .cc re-expands it once per
// target, hence the toggling include guard; everything here is a template
// or inline, so two files may expand it.

#if defined(ADJ_TRIPLET_COLLIDE_COLLIDE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ADJ_TRIPLET_COLLIDE_COLLIDE_INL_H_
#undef ADJ_TRIPLET_COLLIDE_COLLIDE_INL_H_
#else
#define ADJ_TRIPLET_COLLIDE_COLLIDE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "algorithms/triplet_collide/triplet_collide.h"

HWY_BEFORE_NAMESPACE();
namespace adj::triplet_collide::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// How a batch's particles and weights reach the lanes.
enum class Fetch {
  // NvCloth's: one float4 load per particle (and weight), 4 x 4 transposes
  // to SoA. Needs exactly 4 lanes of a 128-bit vector.
  kTranspose4,
  // GatherIndex per coordinate, at any lane count.
  kGather,
};

// Lanes of one batch: x[k], y[k], z[k] of particle slot k, the weights.
template <class D>
struct BatchLanes {
  hn::Vec<D> x[3], y[3], z[3];
  hn::Vec<D> w[3], s;
};

#if HWY_TARGET != HWY_SCALAR
// rows r0..r3 (x, y, z, w each) -> columns c0 = (r0.x, r1.x, r2.x, r3.x)...
template <class D, class V = hn::Vec<D>>
HWY_INLINE void Transpose4(D d, V r0, V r1, V r2, V r3, V& c0, V& c1, V& c2,
                           V& c3) {
  const V t0 = hn::InterleaveLower(d, r0, r1);  // r0.x r1.x r0.y r1.y
  const V t1 = hn::InterleaveLower(d, r2, r3);  // r2.x r3.x r2.y r3.y
  const V t2 = hn::InterleaveUpper(d, r0, r1);  // r0.z r1.z r0.w r1.w
  const V t3 = hn::InterleaveUpper(d, r2, r3);  // r2.z r3.z r2.w r3.w
  c0 = hn::ConcatLowerLower(d, t1, t0);
  c1 = hn::ConcatUpperUpper(d, t1, t0);
  c2 = hn::ConcatLowerLower(d, t3, t2);
  c3 = hn::ConcatUpperUpper(d, t3, t2);
}

template <class D>
HWY_INLINE BatchLanes<D> FetchTransposed(D d, const Triplet* HWY_RESTRICT t,
                                         const Weight* HWY_RESTRICT weights,
                                         const Particle* particles) {
  static_assert(hn::MaxLanes(D()) == 4);
  BatchLanes<D> b;
  hn::Vec<D> unused;
  for (int k = 0; k < 3; ++k) {
    Transpose4(d, hn::LoadU(d, particles[t[0][k]].data()),
               hn::LoadU(d, particles[t[1][k]].data()),
               hn::LoadU(d, particles[t[2][k]].data()),
               hn::LoadU(d, particles[t[3][k]].data()), b.x[k], b.y[k], b.z[k],
               unused);
  }
  Transpose4(d, hn::LoadU(d, weights[t[0][3]].data()),
             hn::LoadU(d, weights[t[1][3]].data()),
             hn::LoadU(d, weights[t[2][3]].data()),
             hn::LoadU(d, weights[t[3][3]].data()), b.w[0], b.w[1], b.w[2],
             b.s);
  return b;
}
#endif  // HWY_TARGET != HWY_SCALAR

template <class D>
HWY_INLINE BatchLanes<D> FetchGathered(D d, const Triplet* HWY_RESTRICT t,
                                       const Weight* HWY_RESTRICT weights,
                                       const Particle* particles) {
  const hn::RebindToUnsigned<D> du;
  const hn::RebindToSigned<D> di;
  hn::Vec<decltype(du)> index[4];
  hn::LoadInterleaved4(du, t[0].data(), index[0], index[1], index[2], index[3]);
  BatchLanes<D> b;
  const float* base = particles[0].data();
  for (int k = 0; k < 3; ++k) {
    // 4 floats per particle; kMaxParticles keeps the offsets within int32.
    const auto offset = hn::ShiftLeft<2>(hn::BitCast(di, index[k]));
    b.x[k] = hn::GatherIndex(d, base, offset);
    b.y[k] = hn::GatherIndex(d, base + 1, offset);
    b.z[k] = hn::GatherIndex(d, base + 2, offset);
  }
  const float* table = weights[0].data();
  const auto offset = hn::ShiftLeft<2>(hn::BitCast(di, index[3]));
  b.w[0] = hn::GatherIndex(d, table, offset);
  b.w[1] = hn::GatherIndex(d, table + 1, offset);
  b.w[2] = hn::GatherIndex(d, table + 2, offset);
  b.s = hn::GatherIndex(d, table + 3, offset);
  return b;
}

// push(d, r) of the contract, lane-wise: adds to (ax, ay, az) where inside.
// Lanes outside add +0, which leaves the sum as it is (it starts at +0 and
// so is never -0).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void AddPush(D d, V dx, V dy, V dz, float radius, V& ax, V& ay,
                        V& az) {
  const V d2 =
      hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
  const auto inside = hn::Lt(d2, hn::Set(d, radius * radius));
  if (hn::AllFalse(d, inside)) return;
  const V r = hn::Set(d, radius);
  const auto off_centre = hn::Gt(d2, hn::Zero(d));
  // At the centre (d2 == 0) k is inf or NaN: those lanes take the select.
  const V k = hn::Sub(hn::Div(r, hn::Sqrt(d2)), hn::Set(d, 1.0f));
  ax = hn::Add(ax, hn::IfThenElseZero(
                       inside, hn::IfThenElseZero(off_centre, hn::Mul(dx, k))));
  ay = hn::Add(ay, hn::IfThenElseZero(
                       inside, hn::IfThenElseZero(off_centre, hn::Mul(dy, k))));
  az = hn::Add(az, hn::IfThenElseZero(
                       inside, hn::IfThenElse(off_centre, hn::Mul(dz, k), r)));
}

// One chunk of Lanes(d) triplets starting at t, whose real particles are
// pairwise distinct (a batch of the schedule, or part of one).
template <Fetch kFetch, class D>
HWY_INLINE void CollideChunk(D d, const Triplet* HWY_RESTRICT t,
                             const Weight* HWY_RESTRICT weights,
                             const Shapes& shapes, Particle* particles) {
  using V = hn::Vec<D>;
  BatchLanes<D> b;
#if HWY_TARGET != HWY_SCALAR
  if constexpr (kFetch == Fetch::kTranspose4) {
    b = FetchTransposed(d, t, weights, particles);
  } else {
    b = FetchGathered(d, t, weights, particles);
  }
#else
  static_assert(kFetch == Fetch::kGather, "one lane: nothing to transpose");
  b = FetchGathered(d, t, weights, particles);
#endif
  const V px =
      hn::Add(hn::Add(hn::Mul(b.w[0], b.x[0]), hn::Mul(b.w[1], b.x[1])),
              hn::Mul(b.w[2], b.x[2]));
  const V py =
      hn::Add(hn::Add(hn::Mul(b.w[0], b.y[0]), hn::Mul(b.w[1], b.y[1])),
              hn::Mul(b.w[2], b.y[2]));
  const V pz =
      hn::Add(hn::Add(hn::Mul(b.w[0], b.z[0]), hn::Mul(b.w[1], b.z[1])),
              hn::Mul(b.w[2], b.z[2]));
  V ax = hn::Zero(d);
  V ay = hn::Zero(d);
  V az = hn::Zero(d);
  for (const Sphere& s : shapes.spheres) {
    AddPush(d, hn::Sub(px, hn::Set(d, s.centre[0])),
            hn::Sub(py, hn::Set(d, s.centre[1])),
            hn::Sub(pz, hn::Set(d, s.centre[2])), s.radius, ax, ay, az);
  }
  for (const Capsule& c : shapes.capsules) {
    // The segment's terms are the same for every lane: scalar, as serial
    // computes them.
    const float abx = c.b[0] - c.a[0];
    const float aby = c.b[1] - c.a[1];
    const float abz = c.b[2] - c.a[2];
    const float len2 = abx * abx + aby * aby + abz * abz;
    const V zero = hn::Zero(d);
    V t_along = zero;
    if (len2 > 0.0f) {
      const V dot = hn::Add(
          hn::Add(hn::Mul(hn::Sub(px, hn::Set(d, c.a[0])), hn::Set(d, abx)),
                  hn::Mul(hn::Sub(py, hn::Set(d, c.a[1])), hn::Set(d, aby))),
          hn::Mul(hn::Sub(pz, hn::Set(d, c.a[2])), hn::Set(d, abz)));
      t_along = hn::Div(dot, hn::Set(d, len2));
      t_along = hn::IfThenElse(hn::Gt(t_along, zero), t_along, zero);
      const V one = hn::Set(d, 1.0f);
      t_along = hn::IfThenElse(hn::Lt(t_along, one), t_along, one);
    }
    const V qx = hn::Add(hn::Set(d, c.a[0]), hn::Mul(t_along, hn::Set(d, abx)));
    const V qy = hn::Add(hn::Set(d, c.a[1]), hn::Mul(t_along, hn::Set(d, aby)));
    const V qz = hn::Add(hn::Set(d, c.a[2]), hn::Mul(t_along, hn::Set(d, abz)));
    AddPush(d, hn::Sub(px, qx), hn::Sub(py, qy), hn::Sub(pz, qz), c.radius, ax,
            ay, az);
  }
  const V zero = hn::Zero(d);
  const auto hit =
      hn::Or(hn::Or(hn::Ne(ax, zero), hn::Ne(ay, zero)), hn::Ne(az, zero));
  if (hn::AllFalse(d, hit)) return;

  // Increments f * delta with f = wk * s, in lanes; the read-modify-write of
  // each particle is scalar, slot after slot as serial does it (a triplet
  // may repeat its own particle).
  constexpr std::size_t kMaxLanes = hn::MaxLanes(D());
  HWY_ALIGN float increment[9][kMaxLanes];
  for (int k = 0; k < 3; ++k) {
    const V f = hn::Mul(b.w[k], b.s);
    hn::Store(hn::Mul(f, ax), d, increment[3 * k + 0]);
    hn::Store(hn::Mul(f, ay), d, increment[3 * k + 1]);
    hn::Store(hn::Mul(f, az), d, increment[3 * k + 2]);
  }
  std::uint8_t hit_bits[(kMaxLanes + 7) / 8 + 8] = {};
  hn::StoreMaskBits(d, hit, hit_bits);
  const std::size_t lanes = hn::Lanes(d);
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    if (((hit_bits[lane / 8] >> (lane % 8)) & 1) == 0) continue;
    for (int k = 0; k < 3; ++k) {
      Particle& x = particles[t[lane][k]];
      if (x[3] == 0.0f) continue;
      x[0] += increment[3 * k + 0][lane];
      x[1] += increment[3 * k + 1][lane];
      x[2] += increment[3 * k + 2][lane];
    }
  }
}

// Every batch of `width` triplets (width a multiple of Lanes(d), checked by
// the caller), in chunks of Lanes(d).
template <Fetch kFetch, class D>
HWY_INLINE void CollideBatches(D d, const Triplet* triplets, std::size_t count,
                               const Weight* weights, const Shapes& shapes,
                               Particle* particles) {
  const std::size_t lanes = hn::Lanes(d);
  for (std::size_t i = 0; i < count; i += lanes) {
    CollideChunk<kFetch>(d, triplets + i, weights, shapes, particles);
  }
}

}  // namespace adj::triplet_collide::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ADJ_TRIPLET_COLLIDE_COLLIDE_INL_H_

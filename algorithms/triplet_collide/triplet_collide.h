#pragma once

// triplet_collide: the kernels that consume a triplet schedule. One
// collision pass of NvCloth's virtual particles (SwCollision::
// collideVirtualParticles on the CPU, CuCollision::collideVirtualCapsules on
// CUDA; docs/triplet_collide.md): each triplet (p0, p1, p2, w)
// names a point on a triangle, the point is pushed out of the collision
// shapes, and the push is scattered back to the three particles.
//
// Data (AoS float4, as NvCloth keeps them):
//   particles  N real particles followed by the 3 dummies N, N+1, N+2 that
//              simd schedules pad with: (x, y, z, invMass) each. The dummies
//              must have invMass == 0 (checked); AppendDummies() places
//              them outside every shape so their points never collide.
//   weights    (w0, w1, w2, s) with s = 1 / (w0^2 + w1^2 + w2^2), as NvCloth
//              precomputes it; kCentroidWeight is entry 0 of the scenes.
//   shapes     spheres (centre, radius) and capsules (segment a-b, one
//              radius), taken in that order: every sphere, then every
//              capsule.
//
// The pass, for each triplet in schedule.triplets order, with every
// operation a single IEEE float operation rounded to nearest, evaluated
// left to right exactly as written (no fused multiply-add anywhere):
//
//   p = w0 * x[p0] + w1 * x[p1] + w2 * x[p2]            (per coordinate)
//   delta = (0, 0, 0)
//   for each sphere (c, r):      d = p - c;              push(d, r)
//   for each capsule (a, b, r):  ab = b - a;  len2 = ab.x*ab.x + ab.y*ab.y
//                                + ab.z*ab.z;  t = 0;
//                                if len2 > 0:  t = ((p - a) . ab) / len2,
//                                  t = t > 0 ? t : 0,  t = t < 1 ? t : 1;
//                                d = p - (a + t * ab);   push(d, r)
//   push(d, r): d2 = d.x*d.x + d.y*d.y + d.z*d.z;
//               if d2 < r * r (strictly inside):
//                 if d2 > 0:  k = r / sqrt(d2) - 1;  delta += d * k
//                 else:       delta.z += r      (the centre: push up)
//   if delta != (0, 0, 0):  for k = 0, 1, 2 in order, unless
//     invMass[pk] == 0:  f = wk * s;  x[pk] += f * delta  (per coordinate,
//     re-reading x[pk], so a triplet that repeats a particle adds twice)
//
// Pushes are measured from the point of the pass's start, not chained.
// Static particles (invMass == 0) are never written: bit for bit unchanged.
//
// Exactness: serial, simd4, simd_native and the CUDA kernels give results
// bitwise equal to a scalar pass over the same schedule order, because a
// schedule's batches (simd) or sets (warp) touch no real particle twice and
// every kernel performs the operations above in the same order. The
// family's files are compiled with -ffp-contract=off (CUDA: --fmad=false
// and __fdiv_rn / __fsqrt_rn) so that no compiler fuses a multiply and an
// add. atomic_unscheduled ignores the schedule's independence: on one
// thread it equals the scalar pass over the same order; on several its
// result depends on the interleaving (see its description).
//
// Every variant throws triplet_collide::Error, before writing anything,
// when:
//   - particles.size() < 3 (no dummies) or > kMaxParticles, a dummy has
//     invMass != 0, or any particle value is NaN or infinite;
//   - a triplet names a particle >= particles.size() (N + 3) or a weight
//     index >= weights.size() (the message names the first such triplet);
//   - a weight or shape value is not finite, or a radius is negative;
//   - the schedule's layout is not what the variant consumes: simd4 and
//     simd_native need a simd schedule of their width (sets padded to
//     multiples of width, set_sizes and padding consistent with it), the
//     CUDA kernels a warp schedule (width 16 or 32, no padding, set_sizes
//     summing to the triplet count);
//   - (cuda_shared, once a device is found) the particles do not fit a
//     block's shared memory.
// After the other checks a CUDA variant without a usable device throws
// adj::Unavailable.
// That a schedule's batches or sets are really independent is the
// scheduler's contract (reference::CheckSimdSchedule / CheckWarpSchedule
// verify it) and is not re-checked per pass, as in NvCloth: a schedule
// that breaks it makes a result differ from serial (a lost update), never
// an out-of-bounds access.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/variant.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_collide {

using Particle = std::array<float, 4>;  // x, y, z, invMass
using Weight = std::array<float, 4>;    // w0, w1, w2, 1 / |w|^2

struct Sphere {
  std::array<float, 3> centre;
  float radius;
};

// The points within `radius` of the segment a-b (a sphere when a == b).
struct Capsule {
  std::array<float, 3> a;
  std::array<float, 3> b;
  float radius;
};

struct Shapes {
  std::vector<Sphere> spheres;
  std::vector<Capsule> capsules;
};

// NvCloth's weight of a triangle's centroid (scenes::VirtualParticles'
// weight index 0).
inline constexpr Weight kCentroidWeight = {1.0f / 3, 1.0f / 3, 1.0f / 3, 3.0f};
inline constexpr std::size_t kDummyParticles = 3;
// The SIMD gathers address floats with 32-bit signed offsets (4 per
// particle or weight): at most 2^29 particles and weights.
inline constexpr std::size_t kMaxParticles = std::size_t{1} << 29;

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

// Valid input past a variant's documented size limit (cuda_shared: the
// particles must fit one block's shared memory). A caller that runs every
// variant reports it as skipped, not as a disagreement.
class TooLarge : public Error {
 public:
  using Error::Error;
};

// One pass over schedule.triplets, particles updated in place.
using CollideFn = void(const triplet_schedule::Schedule& schedule,
                       std::span<const Weight> weights, const Shapes& shapes,
                       std::span<Particle> particles);
// Which schedules a variant consumes.
enum class Order {
  kAny,          // any order: serial (in order), atomic_unscheduled (none)
  kSimdBatches,  // a simd schedule of `width` (SimdSchedulers())
  kWarpSets,     // a warp schedule (WarpSchedulers())
};
// A CUDA row's kernel on a resident scene (DeviceCollider runs it).
enum class DeviceKernel { kNone, kShared, kGlobal, kSharedTiled };
// What a row consumes and, for a CUDA row, which kernel it launches.
struct Traits {
  Order order = Order::kAny;
  unsigned width = 0;         // the simd width it needs; 0: any
  bool native_width = false;  // the width is NativeSimdWidth() at the call
  DeviceKernel kernel = DeviceKernel::kNone;
};
// "order=simd_batches width=4", "order=warp_sets", "" for any order.
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<CollideFn, Traits>;

// serial, simd4, simd_native, atomic_unscheduled, and cuda_shared,
// cuda_global, cuda_shared_tiled when built with CUDA.
std::span<const Variant> Variants();

struct Consumes {
  Order order;
  unsigned width;  // the simd width it needs; 0: any
};
// The row's Traits, with simd_native's width NativeSimdWidth() now.
Consumes ConsumesOf(const Variant& variant);

// The lane count of float vectors on the Highway target dynamic dispatch
// selects now (1 on HWY_SCALAR, 4 on SSE4, 8 on AVX2, 16 on AVX-512): the
// width to build simd_native's schedule for.
unsigned NativeSimdWidth();

// Input order as a schedule (one set, no padding, width 0), for the
// variants that take any order.
triplet_schedule::Schedule InputOrder(std::span<const Triplet> triplets);

// (w0, w1, w2, 1 / (w0^2 + w1^2 + w2^2)).
Weight MakeWeight(float w0, float w1, float w2);

// The suite's SoA positions as particles with one inverse mass (no
// dummies yet: see AppendDummies).
std::vector<Particle> ToParticles(const Points& positions,
                                  float inv_mass = 1.0f);

// Appends the 3 dummy particles (invMass 0) at one point whose every
// coordinate exceeds every particle's and every shape's extent, so that
// any point interpolated from them with weights summing to about 1 lies
// outside every shape. Throws Error if that point would not be finite.
void AppendDummies(std::vector<Particle>& particles, const Shapes& shapes);

// The family's input check, every bullet above but the layout (one pass
// over the particles, weights, shapes and triplets): what every variant
// runs first.
void Check(const triplet_schedule::Schedule& schedule,
           std::span<const Weight> weights, const Shapes& shapes,
           std::span<const Particle> particles);
// The layout a variant consumes, checked by the variant itself (trusted or
// not: it depends on the variant, and costs one pass over the set sizes).
// `who` names the variant in the message.
void CheckSimdLayout(const triplet_schedule::Schedule& schedule, unsigned width,
                     std::string_view who);
void CheckWarpLayout(const triplet_schedule::Schedule& schedule,
                     std::string_view who);

#if ADJ_HAVE_CUDA
// The CUDA kernels run one block of this many threads per cloth (NvCloth's
// simulateCloths runs up to 1024 per cloth block).
inline constexpr int kCudaBlockThreads = 1024;
#endif

}  // namespace adj::triplet_collide

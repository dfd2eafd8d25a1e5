#include "algorithms/triplet_collide/triplet_collide.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

#include "algorithms/triplet_collide/variants.h"

namespace adj::triplet_collide {
namespace {

// False for NaN and +-inf; a branch-free loop body the compiler vectorises.
inline bool Finite(float v) { return std::fabs(v) <= FLT_MAX; }

template <std::size_t K>
bool AllFinite(const std::array<float, K>& values) {
  bool ok = true;
  for (const float v : values) ok &= Finite(v);
  return ok;
}

[[noreturn]] void ThrowFirstBadTriplet(std::span<const Triplet> triplets,
                                       std::size_t particle_count,
                                       std::size_t weight_count) {
  for (std::size_t i = 0; i < triplets.size(); ++i) {
    const Triplet& t = triplets[i];
    for (int k = 0; k < 3; ++k) {
      if (t[k] >= particle_count) {
        throw Error("triplet_collide: triplet " + std::to_string(i) + " " +
                    DescribeTriplet(t) + " names particle " +
                    std::to_string(t[k]) + ", but there are only " +
                    std::to_string(particle_count) +
                    " particles (dummies included)");
      }
    }
    if (t[3] >= weight_count) {
      throw Error("triplet_collide: triplet " + std::to_string(i) + " " +
                  DescribeTriplet(t) + " names weight " + std::to_string(t[3]) +
                  ", but the table has " + std::to_string(weight_count));
    }
  }
  throw Error("triplet_collide: internal error: no bad triplet found");
}

void CheckShapes(const Shapes& shapes) {
  for (std::size_t i = 0; i < shapes.spheres.size(); ++i) {
    const Sphere& s = shapes.spheres[i];
    if (!AllFinite(s.centre) || !Finite(s.radius) || s.radius < 0) {
      throw Error("triplet_collide: sphere " + std::to_string(i) +
                  " has a non-finite value or a negative radius");
    }
  }
  for (std::size_t i = 0; i < shapes.capsules.size(); ++i) {
    const Capsule& c = shapes.capsules[i];
    if (!AllFinite(c.a) || !AllFinite(c.b) || !Finite(c.radius) ||
        c.radius < 0) {
      throw Error("triplet_collide: capsule " + std::to_string(i) +
                  " has a non-finite value or a negative radius");
    }
  }
}

std::uint64_t SumOf(std::span<const std::uint32_t> sizes) {
  std::uint64_t sum = 0;
  for (const std::uint32_t size : sizes) sum += size;
  return sum;
}

}  // namespace

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"serial",
            Backend::kSerial,
            Origin::kBaseline,
            "the pass as specified, one triplet after another in schedule "
            "order (dummies included: they never collide)",
            &SerialCollide,
            {},
            &SerialCollideTrusted},
    Variant{"simd4",
            Backend::kSimd,
            Origin::kFaithful,
            "NvCloth's SwCollision: a simd schedule of width 4, per batch "
            "4 x 3 particle float4 loads transposed to SoA lanes, 4 points "
            "collided at once, scatter of the colliding lanes",
            &Simd4Collide,
            {},
            &Simd4CollideTrusted,
            {},
            nullptr,
            Traits{Order::kSimdBatches, 4}},
    Variant{"simd_native",
            Backend::kSimd,
            Origin::kOurs,
            "simd4 at the native float lane count (NativeSimdWidth(): 8 on "
            "AVX2, 16 on AVX-512) on a schedule of that width, particles "
            "and weights fetched with gathers",
            &SimdNativeCollide,
            {},
            &SimdNativeCollideTrusted,
            {},
            nullptr,
            Traits{Order::kSimdBatches, 0, /*native_width=*/true}},
    Variant{"atomic_unscheduled",
            Backend::kOpenMp,
            Origin::kBaseline,
            "no schedule: OpenMP threads over the triplets as given, "
            "relaxed atomic loads and atomic float adds (NvCloth's wind "
            "alternative); order-dependent on several threads",
            &AtomicUnscheduledCollide,
            {},
            &AtomicUnscheduledCollideTrusted,
            "its float sums depend on the order the threads add in",
            &AtomicUnscheduledThreads},
#if ADJ_HAVE_CUDA
    Variant{"cuda_shared",
            Backend::kCuda,
            Origin::kFaithful,
            "NvCloth's CuCollision in shared mode: one block, particles in "
            "shared memory as SoA x[], y[], z[], invMass[], a barrier per "
            "warp-schedule set; host memory in and out",
            &CudaSharedCollide,
            {},
            &CudaSharedCollideTrusted,
            {},
            nullptr,
            Traits{Order::kWarpSets, 0, false, DeviceKernel::kShared}},
    Variant{"cuda_global",
            Backend::kCuda,
            Origin::kFaithful,
            "the same loop with particles as float4 in global memory "
            "(NvCloth's global mode); host memory in and out",
            &CudaGlobalCollide,
            {},
            &CudaGlobalCollideTrusted,
            {},
            nullptr,
            Traits{Order::kWarpSets, 0, false, DeviceKernel::kGlobal}},
    Variant{"cuda_shared_tiled",
            Backend::kCuda,
            Origin::kOurs,
            "cuda_shared for any cloth size: a launch per warp-schedule set, "
            "each block staging a tile of the set's warps (the particles "
            "they name, at shared slots congruent to the particle index mod "
            "32: cuda_shared's banks) and writing it back; host memory in "
            "and out",
            &CudaSharedTiledCollide,
            {},
            &CudaSharedTiledCollideTrusted,
            {},
            nullptr,
            Traits{Order::kWarpSets, 0, false, DeviceKernel::kSharedTiled}},
#endif
  };
  return kVariants;
}

Consumes ConsumesOf(const Variant& variant) {
  const Traits& traits = variant.traits;
  return {traits.order, traits.native_width ? NativeSimdWidth() : traits.width};
}

std::string TraitsText(const Traits& traits) {
  switch (traits.order) {
    case Order::kAny:
      return "";
    case Order::kSimdBatches:
      return "order=simd_batches width=" + (traits.native_width
                                                ? std::string("native")
                                                : std::to_string(traits.width));
    case Order::kWarpSets:
      return "order=warp_sets";
  }
  return "";
}

triplet_schedule::Schedule InputOrder(std::span<const Triplet> triplets) {
  triplet_schedule::Schedule schedule;
  schedule.triplets.assign(triplets.begin(), triplets.end());
  if (!triplets.empty()) {
    schedule.set_sizes = {static_cast<std::uint32_t>(triplets.size())};
  }
  schedule.width = 0;
  return schedule;
}

Weight MakeWeight(float w0, float w1, float w2) {
  return {w0, w1, w2, 1.0f / (w0 * w0 + w1 * w1 + w2 * w2)};
}

std::vector<Particle> ToParticles(const Points& positions, float inv_mass) {
  std::vector<Particle> particles(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    particles[i] = {positions.x[i], positions.y[i], positions.z[i], inv_mass};
  }
  return particles;
}

void AppendDummies(std::vector<Particle>& particles, const Shapes& shapes) {
  float extent = 0;
  const auto grow = [&extent](float v) {
    extent = std::max(extent, std::fabs(v));
  };
  for (const Particle& p : particles) {
    grow(p[0]);
    grow(p[1]);
    grow(p[2]);
  }
  for (const Sphere& s : shapes.spheres) {
    for (const float c : s.centre) grow(std::fabs(c) + s.radius);
  }
  for (const Capsule& c : shapes.capsules) {
    for (int k = 0; k < 3; ++k) {
      grow(std::fabs(c.a[k]) + c.radius);
      grow(std::fabs(c.b[k]) + c.radius);
    }
  }
  // Twice the extent plus one: a point interpolated with weights summing to
  // about 1 (rounding included) stays beyond every shape in x.
  const float far = 2 * extent + 1;
  if (!Finite(far)) {
    throw Error("triplet_collide: no finite place for the dummy particles");
  }
  for (std::size_t k = 0; k < kDummyParticles; ++k) {
    particles.push_back({far, far, far, 0.0f});
  }
}

void Check(const triplet_schedule::Schedule& schedule,
           std::span<const Weight> weights, const Shapes& shapes,
           std::span<const Particle> particles) {
  const std::size_t count = particles.size();
  if (count < kDummyParticles) {
    throw Error("triplet_collide: " + std::to_string(count) +
                " particles: the 3 dummy particles N..N+2 are missing");
  }
  if (count > kMaxParticles || weights.size() > kMaxParticles) {
    throw Error("triplet_collide: more than 2^29 particles or weights");
  }
  for (std::size_t k = count - kDummyParticles; k < count; ++k) {
    if (particles[k][3] != 0) {
      throw Error("triplet_collide: dummy particle " + std::to_string(k) +
                  " has invMass " + std::to_string(particles[k][3]) +
                  "; the dummies must be static (0)");
    }
  }
  bool finite = true;
  for (const Particle& p : particles) finite &= AllFinite(p);
  if (!finite) {
    for (std::size_t i = 0; i < count; ++i) {
      if (!AllFinite(particles[i])) {
        throw Error("triplet_collide: particle " + std::to_string(i) +
                    " has a NaN or infinite value");
      }
    }
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!AllFinite(weights[i])) {
      throw Error("triplet_collide: weight " + std::to_string(i) +
                  " has a NaN or infinite value");
    }
  }
  CheckShapes(shapes);
  // One branch-free pass for the common case, a second one only to name
  // the culprit.
  std::uint32_t max_particle = 0;
  std::uint32_t max_weight = 0;
  for (const Triplet& t : schedule.triplets) {
    max_particle = std::max(max_particle, std::max(t[0], std::max(t[1], t[2])));
    max_weight = std::max(max_weight, t[3]);
  }
  if (!schedule.triplets.empty() &&
      (max_particle >= count || max_weight >= weights.size())) {
    ThrowFirstBadTriplet(schedule.triplets, count, weights.size());
  }
}

void CheckSimdLayout(const triplet_schedule::Schedule& schedule, unsigned width,
                     std::string_view who) {
  const std::string name = "triplet_collide " + std::string(who) + ": ";
  if (schedule.width != width) {
    throw Error(name + "needs a simd schedule of width " +
                std::to_string(width) + ", got one of width " +
                std::to_string(schedule.width));
  }
  std::uint64_t padded = 0;
  for (const std::uint32_t size : schedule.set_sizes) {
    padded += (std::uint64_t{size} + width - 1) / width * width;
  }
  const std::uint64_t real = SumOf(schedule.set_sizes);
  if (padded != schedule.triplets.size() ||
      real + schedule.padding != schedule.triplets.size()) {
    throw Error(name + "not a simd schedule of width " + std::to_string(width) +
                ": " + std::to_string(schedule.triplets.size()) +
                " triplets, but set sizes padded to the width make " +
                std::to_string(padded) + " and with the stated padding " +
                std::to_string(real + schedule.padding));
  }
}

void CheckWarpLayout(const triplet_schedule::Schedule& schedule,
                     std::string_view who) {
  const std::string name = "triplet_collide " + std::string(who) + ": ";
  if (!triplet_schedule::IsValidWarpWidth(schedule.width) ||
      schedule.padding != 0 ||
      SumOf(schedule.set_sizes) != schedule.triplets.size()) {
    throw Error(name +
                "needs a warp schedule (width 16 or 32, no padding, "
                "set sizes summing to the triplets); got width " +
                std::to_string(schedule.width) + ", padding " +
                std::to_string(schedule.padding) + ", " +
                std::to_string(schedule.set_sizes.size()) + " sets of " +
                std::to_string(SumOf(schedule.set_sizes)) + " for " +
                std::to_string(schedule.triplets.size()) + " triplets");
  }
}

}  // namespace adj::triplet_collide

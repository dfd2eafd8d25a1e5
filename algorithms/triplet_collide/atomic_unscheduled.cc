// atomic_unscheduled: the alternative to scheduling. OpenMP threads take
// contiguous slices of the triplets as given (no sets, no batches), read
// particles with relaxed atomic loads and scatter with atomic float adds
// (std::atomic_ref<float>::fetch_add, a compare-and-swap loop on x86), as
// NvCloth's CUDA wind kernel does with atomicAdd instead of colouring.
//
// What that buys and costs: no schedule to build, but two triplets sharing a
// particle may run at once, so a triplet may interpolate a particle before
// or after its neighbour's push (or, coordinate by coordinate, half way),
// and the result depends on the threads' timing. On one thread it is the
// serial pass over the same order, bit for bit (each fetch_add rounds
// x + f * delta once, as serial's +=). Static particles are never written.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/triplet_collide/point_collide.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_collide/variants.h"

namespace adj::triplet_collide {
namespace {

// Below this many triplets per thread, forking costs more than it saves
// (a pass costs tens of nanoseconds per triplet with a few shapes).
constexpr std::size_t kMinTripletsPerThread = 4096;

int ThreadsFor(std::size_t triplets, int max_threads,
               std::size_t min_triplets_per_thread) {
  const std::size_t by_size =
      triplets / std::max<std::size_t>(min_triplets_per_thread, 1);
  return static_cast<int>(std::clamp<std::size_t>(
      by_size, 1, static_cast<std::size_t>(std::max(max_threads, 1))));
}

float Load(float& value) {
  return std::atomic_ref<float>(value).load(std::memory_order_relaxed);
}

}  // namespace

int AtomicUnscheduledThreads(std::size_t triplets) {
  return ThreadsFor(triplets, omp_get_max_threads(), kMinTripletsPerThread);
}

namespace {

// The pass on input that passed Check.
void AtomicUnscheduledKernel(const triplet_schedule::Schedule& schedule,
                             std::span<const Weight> weights,
                             const Shapes& shapes,
                             std::span<Particle> particles, int max_threads,
                             std::size_t min_triplets_per_thread) {
  const std::size_t count = schedule.triplets.size();
  const int threads = ThreadsFor(count, max_threads, min_triplets_per_thread);
  const Triplet* triplets = schedule.triplets.data();
  Particle* x = particles.data();
  const Weight* table = weights.data();
  const Sphere* spheres = shapes.spheres.data();
  const std::size_t sphere_count = shapes.spheres.size();
  const Capsule* capsules = shapes.capsules.data();
  const std::size_t capsule_count = shapes.capsules.size();
  const auto position = [x](std::uint32_t i) {
    return point::Vec3{Load(x[i][0]), Load(x[i][1]), Load(x[i][2])};
  };

  ExceptionTrap trap;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::size_t i = 0; i < count; ++i) {
    trap.Run([&] {
      fault::Point("triplet_collide.atomic_unscheduled");
      const Triplet& t = triplets[i];
      const Weight& w = table[t[3]];
      const point::Vec3 p = point::Interpolate(
          position(t[0]), position(t[1]), position(t[2]), w[0], w[1], w[2]);
      const point::Vec3 delta =
          point::ShapesDelta(p, spheres, sphere_count, capsules, capsule_count);
      if (point::IsZero(delta)) return;
      for (int k = 0; k < 3; ++k) {
        Particle& particle = x[t[k]];
        // invMass is never written: a plain read does not race.
        if (particle[3] == 0.0f) continue;
        const float f = w[k] * w[3];
        std::atomic_ref<float>(particle[0])
            .fetch_add(f * delta.x, std::memory_order_relaxed);
        std::atomic_ref<float>(particle[1])
            .fetch_add(f * delta.y, std::memory_order_relaxed);
        std::atomic_ref<float>(particle[2])
            .fetch_add(f * delta.z, std::memory_order_relaxed);
      }
    });
  }
  trap.Rethrow();
}

}  // namespace

void AtomicUnscheduledCollideTuned(const triplet_schedule::Schedule& schedule,
                                   std::span<const Weight> weights,
                                   const Shapes& shapes,
                                   std::span<Particle> particles,
                                   int max_threads,
                                   std::size_t min_triplets_per_thread) {
  Check(schedule, weights, shapes, particles);
  AtomicUnscheduledKernel(schedule, weights, shapes, particles, max_threads,
                          min_triplets_per_thread);
}

void AtomicUnscheduledCollide(const triplet_schedule::Schedule& schedule,
                              std::span<const Weight> weights,
                              const Shapes& shapes,
                              std::span<Particle> particles) {
  AtomicUnscheduledCollideTuned(schedule, weights, shapes, particles,
                                omp_get_max_threads(), kMinTripletsPerThread);
}

void AtomicUnscheduledCollideTrusted(const triplet_schedule::Schedule& schedule,
                                     std::span<const Weight> weights,
                                     const Shapes& shapes,
                                     std::span<Particle> particles) {
  AtomicUnscheduledKernel(schedule, weights, shapes, particles,
                          omp_get_max_threads(), kMinTripletsPerThread);
}

}  // namespace adj::triplet_collide

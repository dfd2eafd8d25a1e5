#pragma once

// Host glue and device code shared by cuda_shared.cu, cuda_global.cu and
// device_collider.cu (private to the family; other families use
// device.cuh): a triplet's scatter, and the scene copied to the device.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/triplet_collide/device.cuh"
#include "algorithms/triplet_collide/point_collide.h"
#include "algorithms/triplet_collide/triplet_collide.h"

namespace adj::triplet_collide::cuda_launch {

constexpr int kThreads = kCudaBlockThreads;

// The contract's scatter for one thread's triplet, given accessors for one
// coordinate of a particle (shared SoA or global float4).
template <typename Position, typename Apply>
__device__ __forceinline__ void CollideTriplet(const device::Scene& scene,
                                               std::uint32_t i,
                                               Position&& position,
                                               Apply&& apply) {
  const uint4 t = scene.triplets[i];
  const float4 w = scene.weights[t.w];
  const point::Vec3 p = point::Interpolate(position(t.x), position(t.y),
                                           position(t.z), w.x, w.y, w.z);
  const point::Vec3 delta =
      point::ShapesDelta(p, scene.spheres, scene.sphere_count, scene.capsules,
                         scene.capsule_count);
  if (point::IsZero(delta)) return;
  apply(t.x, w.x * w.w, delta);
  apply(t.y, w.y * w.w, delta);
  apply(t.z, w.z * w.w, delta);
}

// The scene of a checked warp schedule in device memory: what
// device::Scene points to, owned.
class SceneBuffers {
 public:
  // Checks the warp layout (the input passed Check) for `who`, requires a
  // device and copies everything but the particles.
  SceneBuffers(const triplet_schedule::Schedule& schedule,
               std::span<const Weight> weights, const Shapes& shapes,
               std::size_t particle_count, const char* who)
      : particle_count_(static_cast<std::uint32_t>(particle_count)),
        sets_(static_cast<std::uint32_t>(schedule.set_sizes.size())) {
    CheckWarpLayout(schedule, who);
    cuda::RequireDevice();
    std::vector<std::uint32_t> set_starts(schedule.set_sizes.size() + 1, 0);
    for (std::size_t s = 0; s < schedule.set_sizes.size(); ++s) {
      set_starts[s + 1] = set_starts[s] + schedule.set_sizes[s];
    }
    static_assert(sizeof(Triplet) == sizeof(uint4));
    static_assert(sizeof(Weight) == sizeof(float4));
    triplets_ = cuda::DeviceBuffer<uint4>(schedule.triplets.size());
    triplets_.CopyFromHost(
        reinterpret_cast<const uint4*>(schedule.triplets.data()),
        schedule.triplets.size());
    starts_ = cuda::DeviceBuffer<std::uint32_t>(set_starts.size());
    starts_.CopyFromHost(set_starts.data(), set_starts.size());
    weights_ = cuda::DeviceBuffer<float4>(weights.size());
    weights_.CopyFromHost(reinterpret_cast<const float4*>(weights.data()),
                          weights.size());
    spheres_ = cuda::DeviceBuffer<Sphere>(shapes.spheres.size());
    spheres_.CopyFromHost(shapes.spheres.data(), shapes.spheres.size());
    capsules_ = cuda::DeviceBuffer<Capsule>(shapes.capsules.size());
    capsules_.CopyFromHost(shapes.capsules.data(), shapes.capsules.size());
  }

  device::Scene View() const {
    return {triplets_.data(),
            starts_.data(),
            sets_,
            particle_count_,
            weights_.data(),
            spheres_.data(),
            static_cast<std::uint32_t>(spheres_.size()),
            capsules_.data(),
            static_cast<std::uint32_t>(capsules_.size())};
  }

 private:
  std::uint32_t particle_count_;
  std::uint32_t sets_;
  cuda::DeviceBuffer<uint4> triplets_;
  cuda::DeviceBuffer<std::uint32_t> starts_;
  cuda::DeviceBuffer<float4> weights_;
  cuda::DeviceBuffer<Sphere> spheres_;
  cuda::DeviceBuffer<Capsule> capsules_;
};

// Host memory in and out, for the variant table: copies the scene in, runs
// `collide(scene, device_particles)` (a device entry) once, copies the
// particles back.
template <typename Collide>
void CollideHostArrays(const triplet_schedule::Schedule& schedule,
                       std::span<const Weight> weights, const Shapes& shapes,
                       std::span<Particle> particles, const char* who,
                       Collide&& collide) {
  if (schedule.triplets.empty()) {
    CheckWarpLayout(schedule, who);
    cuda::RequireDevice();
    return;
  }
  const SceneBuffers scene(schedule, weights, shapes, particles.size(), who);
  static_assert(sizeof(Particle) == sizeof(float4));
  cuda::DeviceBuffer<float4> x(particles.size());
  x.CopyFromHost(reinterpret_cast<const float4*>(particles.data()),
                 particles.size());
  collide(scene.View(), x.data());
  cuda::Check(cudaDeviceSynchronize(), who);
  x.CopyToHost(reinterpret_cast<float4*>(particles.data()), particles.size());
}

}  // namespace adj::triplet_collide::cuda_launch

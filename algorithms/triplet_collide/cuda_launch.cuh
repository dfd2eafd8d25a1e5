#pragma once

// Host glue and device data shared by cuda_shared.cu and cuda_global.cu:
// checks, host memory in and out, the set boundaries of a warp schedule.
// Ran on an H100: the tests (bit for bit against the oracle), memcheck and
// racecheck clean (docs/triplet_collide.md#results).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/triplet_collide/point_collide.h"
#include "algorithms/triplet_collide/triplet_collide.h"

namespace adj::triplet_collide::cuda_launch {

constexpr int kThreads = kCudaBlockThreads;

// What a kernel reads; particles are passed separately.
struct DeviceScene {
  const uint4* triplets;
  const std::uint32_t* set_starts;  // sets + 1 entries
  std::uint32_t sets;
  std::uint32_t particle_count;  // N + 3
  const float4* weights;
  const Sphere* spheres;
  std::uint32_t sphere_count;
  const Capsule* capsules;
  std::uint32_t capsule_count;
};

// The contract's scatter for one thread's triplet, given accessors for one
// coordinate of a particle (shared SoA or global float4).
template <typename Position, typename Apply>
__device__ __forceinline__ void CollideTriplet(const DeviceScene& scene,
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

// Checks the warp layout (the input passed Check), copies in, calls
// `prepare(scene)` (host-side launch setup such as shared-memory attributes,
// which may throw), runs `launch(scene, device_particles)` once between the
// CUDA events that give the kernel time, copies the particles back. `launch`
// only enqueues, on the default stream: host calls between the events would
// count as the kernel's time, since the GPU idles between the start event and
// the kernel.
template <typename Prepare, typename Launch>
void CollideHostArrays(const triplet_schedule::Schedule& schedule,
                       std::span<const Weight> weights, const Shapes& shapes,
                       std::span<Particle> particles, const char* who,
                       Prepare&& prepare, Launch&& launch) {
  CheckWarpLayout(schedule, who);
  cuda::RequireDevice();
  if (schedule.triplets.empty()) return;
  std::vector<std::uint32_t> set_starts(schedule.set_sizes.size() + 1, 0);
  for (std::size_t s = 0; s < schedule.set_sizes.size(); ++s) {
    set_starts[s + 1] = set_starts[s] + schedule.set_sizes[s];
  }
  static_assert(sizeof(Triplet) == sizeof(uint4));
  static_assert(sizeof(Particle) == sizeof(float4));
  static_assert(sizeof(Weight) == sizeof(float4));
  cuda::DeviceBuffer<uint4> triplets(schedule.triplets.size());
  triplets.CopyFromHost(
      reinterpret_cast<const uint4*>(schedule.triplets.data()),
      schedule.triplets.size());
  cuda::DeviceBuffer<std::uint32_t> starts(set_starts.size());
  starts.CopyFromHost(set_starts.data(), set_starts.size());
  cuda::DeviceBuffer<float4> table(weights.size());
  table.CopyFromHost(reinterpret_cast<const float4*>(weights.data()),
                     weights.size());
  cuda::DeviceBuffer<Sphere> spheres(shapes.spheres.size());
  spheres.CopyFromHost(shapes.spheres.data(), shapes.spheres.size());
  cuda::DeviceBuffer<Capsule> capsules(shapes.capsules.size());
  capsules.CopyFromHost(shapes.capsules.data(), shapes.capsules.size());
  cuda::DeviceBuffer<float4> x(particles.size());
  x.CopyFromHost(reinterpret_cast<const float4*>(particles.data()),
                 particles.size());
  const DeviceScene scene{triplets.data(),
                          starts.data(),
                          static_cast<std::uint32_t>(schedule.set_sizes.size()),
                          static_cast<std::uint32_t>(particles.size()),
                          table.data(),
                          spheres.data(),
                          static_cast<std::uint32_t>(shapes.spheres.size()),
                          capsules.data(),
                          static_cast<std::uint32_t>(shapes.capsules.size())};
  prepare(scene);
  const double seconds = cuda::TimeOnDevice([&] { launch(scene, x.data()); });
  cuda::Check(cudaGetLastError(), who);
  cuda::Check(cudaDeviceSynchronize(), who);
  detail::SetLastCudaKernelSeconds(seconds);
  x.CopyToHost(reinterpret_cast<float4*>(particles.data()), particles.size());
}

}  // namespace adj::triplet_collide::cuda_launch

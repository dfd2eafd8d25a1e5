// cuda_global: cuda_shared's loop with the particles left in global memory
// as float4 (NvCloth's mode 0, "global", for cloths whose particles do not
// fit shared memory): one block, a __syncthreads() per warp-schedule set
// (it also orders the block's global memory accesses), thread t on
// set-local triplets t, t + blockDim, ...
//
// Exactness as cuda_shared (--fmad=false, __fdiv_rn, __fsqrt_rn).
#include "algorithms/triplet_collide/cuda_launch.cuh"
#include "algorithms/triplet_collide/variants.h"

namespace adj::triplet_collide {
namespace {

__global__ void __launch_bounds__(cuda_launch::kThreads)
    CollideGlobalKernel(device::Scene scene, float4* particles) {
  const auto position = [&](std::uint32_t i) {
    const float4 p = particles[i];
    return point::Vec3{p.x, p.y, p.z};
  };
  const auto apply = [&](std::uint32_t i, float f, point::Vec3 delta) {
    float4 p = particles[i];
    if (p.w == 0.0f) return;
    p.x += f * delta.x;
    p.y += f * delta.y;
    p.z += f * delta.z;
    particles[i] = p;
  };
  for (std::uint32_t s = 0; s < scene.sets; ++s) {
    __syncthreads();
    const std::uint32_t end = scene.set_starts[s + 1];
    for (std::uint32_t i = scene.set_starts[s] + threadIdx.x; i < end;
         i += blockDim.x) {
      cuda_launch::CollideTriplet(scene, i, position, apply);
    }
  }
}

}  // namespace

void device::CollideGlobal(const Scene& scene, float4* particles,
                           cudaStream_t stream) {
  CollideGlobalKernel<<<1, cuda_launch::kThreads, 0, stream>>>(scene,
                                                               particles);
  cuda::Check(cudaGetLastError(), "cuda_global");
}

void CudaGlobalCollide(const triplet_schedule::Schedule& schedule,
                       std::span<const Weight> weights, const Shapes& shapes,
                       std::span<Particle> particles) {
  Check(schedule, weights, shapes, particles);
  CudaGlobalCollideTrusted(schedule, weights, shapes, particles);
}

void CudaGlobalCollideTrusted(const triplet_schedule::Schedule& schedule,
                              std::span<const Weight> weights,
                              const Shapes& shapes,
                              std::span<Particle> particles) {
  cuda_launch::CollideHostArrays(
      schedule, weights, shapes, particles, "cuda_global",
      [](const device::Scene& scene, float4* device_particles) {
        device::CollideGlobal(scene, device_particles, nullptr);
      });
}

}  // namespace adj::triplet_collide

#pragma once

// triplet_collide's public device API: the CUDA kernels on a scene already
// in device memory, for families that collide on the GPU and for timing the
// kernels alone. The scene is trusted: the caller checked it (Check and
// CheckWarpLayout on its host copy). cuda_shared and cuda_global run the
// whole pass in one block of kCudaBlockThreads threads, the warp schedule's
// sets in order; cuda_shared_tiled runs a launch of many blocks per set.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "algorithms/triplet_collide/triplet_collide.h"

namespace adj::triplet_collide::device {

// What a kernel reads; the particles (float4: x, y, z, invMass, dummies
// included) are passed apart, as they are what a pass writes.
struct Scene {
  const uint4* triplets;            // p0, p1, p2, weight index
  const std::uint32_t* set_starts;  // sets + 1 entries
  std::uint32_t sets;
  std::uint32_t particle_count;  // N + 3
  const float4* weights;
  const Sphere* spheres;
  std::uint32_t sphere_count;
  const Capsule* capsules;
  std::uint32_t capsule_count;
};

// cuda_shared's launch setup for `scene` on the current device, once before
// CollideShared and outside any timing: throws TooLarge when the particles
// do not fit one block's opt-in shared memory.
void PrepareShared(const Scene& scene);
// One pass with the particles in shared memory (the cuda_shared variant).
void CollideShared(const Scene& scene, float4* particles, cudaStream_t stream);
// One pass with the particles in global memory (the cuda_global variant).
void CollideGlobal(const Scene& scene, float4* particles, cudaStream_t stream);

// cuda_shared_tiled's staging plan (tiled_plan.h) of a warp schedule, in
// device memory: built once per schedule, as the schedule is. The schedule
// must be the one the scene was made from.
class TiledPlan {
 public:
  TiledPlan(const triplet_schedule::Schedule& schedule,
            std::size_t particle_count);
  ~TiledPlan();
  TiledPlan(TiledPlan&&) noexcept;
  TiledPlan& operator=(TiledPlan&&) noexcept;

 private:
  friend void CollideSharedTiled(const Scene& scene, const TiledPlan& plan,
                                 float4* particles, cudaStream_t stream);
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

// One pass with each warp-schedule set's tiles staged into shared memory by
// blocks of their own, a launch per set (the cuda_shared_tiled variant):
// every cloth size, the shared-memory banks of cuda_shared.
void CollideSharedTiled(const Scene& scene, const TiledPlan& plan,
                        float4* particles, cudaStream_t stream);

}  // namespace adj::triplet_collide::device

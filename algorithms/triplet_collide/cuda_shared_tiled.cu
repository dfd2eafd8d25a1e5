// cuda_shared_tiled: cuda_shared's shared-memory pass for cloths of any
// size. Each warp-schedule set is one launch; each block takes one tile of
// the set (whole warps of it, tiled_plan.h), stages the particles its
// triplets name into shared memory as SoA x[], y[], z[], invMass[] at slots
// congruent to their index mod 32, collides its triplets (thread t on tile
// triplets t, t + blockDim, ..., so warp w is the set's chunk of 32 the bank
// model counts), and writes the particles back. A set's triplets share no
// particle, so its tiles need no order among them; the launches order the
// sets.
//
// Why slots keep p mod 32: the question this variant answers is whether a
// schedule's bank replays cost kernel time, so its shared accesses must
// meet the banks the schedulers optimise (cuda_shared's x[p]), not those of
// a packed staging order. A window of the particle range would keep the
// banks too, but a permuted cloth's set spans the whole range.
//
// Exactness as cuda_shared (--fmad=false, __fdiv_rn, __fsqrt_rn): each
// particle is staged once per set and collided by one triplet, in the
// contract's order of operations.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "algorithms/triplet_collide/cuda_launch.cuh"
#include "algorithms/triplet_collide/tiled_plan.h"
#include "algorithms/triplet_collide/variants.h"

namespace adj::triplet_collide {
namespace {

__global__ void __launch_bounds__(tiled::kTileThreads)
    CollideTileKernel(device::Scene scene, const tiled::Tile* tiles,
                      std::uint32_t first_tile,
                      const std::uint32_t* slot_particles, float4* particles) {
  extern __shared__ float shared[];
  const tiled::Tile tile = tiles[first_tile + blockIdx.x];
  // Every array starts at a multiple of 32 words, so slot i is on bank
  // i mod 32 in each.
  float* x = shared;
  float* y = x + tile.slots;
  float* z = y + tile.slots;
  float* inv_mass = z + tile.slots;
  const std::uint32_t* staged = slot_particles + tile.first_slot;
  for (std::uint32_t i = threadIdx.x; i < tile.slots; i += blockDim.x) {
    const std::uint32_t p = staged[i];
    if (p == tiled::kNoParticle) continue;
    const float4 v = particles[p];
    x[i] = v.x;
    y[i] = v.y;
    z[i] = v.z;
    inv_mass[i] = v.w;
  }
  __syncthreads();
  const auto position = [&](std::uint32_t i) {
    return point::Vec3{x[i], y[i], z[i]};
  };
  const auto apply = [&](std::uint32_t i, float f, point::Vec3 delta) {
    if (inv_mass[i] == 0.0f) return;
    x[i] += f * delta.x;
    y[i] += f * delta.y;
    z[i] += f * delta.z;
  };
  const std::uint32_t end = tile.first_triplet + tile.triplets;
  for (std::uint32_t i = tile.first_triplet + threadIdx.x; i < end;
       i += blockDim.x) {
    cuda_launch::CollideTriplet(scene, i, position, apply);
  }
  __syncthreads();
  for (std::uint32_t i = threadIdx.x; i < tile.slots; i += blockDim.x) {
    const std::uint32_t p = staged[i];
    if (p == tiled::kNoParticle) continue;
    particles[p] = make_float4(x[i], y[i], z[i], inv_mass[i]);
  }
}

constexpr std::size_t kBytesPerSlot = 4 * sizeof(float);

}  // namespace

struct device::TiledPlan::Buffers {
  std::vector<std::uint32_t> set_first_tile;  // host: the launches' grids
  std::vector<std::uint32_t> set_slots;
  cuda::DeviceBuffer<uint4> triplets;
  cuda::DeviceBuffer<tiled::Tile> tiles;
  cuda::DeviceBuffer<std::uint32_t> slot_particles;
};

device::TiledPlan::TiledPlan(const triplet_schedule::Schedule& schedule,
                             std::size_t particle_count) {
  tiled::Plan plan = tiled::MakePlan(schedule, particle_count);
  buffers_ = std::make_unique<Buffers>();
  Buffers& b = *buffers_;
  b.set_first_tile = std::move(plan.set_first_tile);
  b.set_slots = std::move(plan.set_slots);
  b.triplets = cuda::DeviceBuffer<uint4>(plan.triplets.size());
  b.triplets.CopyFromHost(reinterpret_cast<const uint4*>(plan.triplets.data()),
                          plan.triplets.size());
  b.tiles = cuda::DeviceBuffer<tiled::Tile>(plan.tiles.size());
  b.tiles.CopyFromHost(plan.tiles.data(), plan.tiles.size());
  b.slot_particles =
      cuda::DeviceBuffer<std::uint32_t>(plan.slot_particles.size());
  b.slot_particles.CopyFromHost(plan.slot_particles.data(),
                                plan.slot_particles.size());
}

device::TiledPlan::~TiledPlan() = default;
device::TiledPlan::TiledPlan(TiledPlan&&) noexcept = default;
device::TiledPlan& device::TiledPlan::operator=(TiledPlan&&) noexcept = default;

void device::CollideSharedTiled(const Scene& scene, const TiledPlan& plan,
                                float4* particles, cudaStream_t stream) {
  const TiledPlan::Buffers& b = *plan.buffers_;
  // The same scene with the triplets' particles replaced by their slots.
  Scene staged = scene;
  staged.triplets = b.triplets.data();
  for (std::size_t s = 0; s < b.set_slots.size(); ++s) {
    const std::uint32_t tiles = b.set_first_tile[s + 1] - b.set_first_tile[s];
    if (tiles == 0) continue;
    CollideTileKernel<<<tiles, tiled::kTileThreads,
                        kBytesPerSlot * b.set_slots[s], stream>>>(
        staged, b.tiles.data(), b.set_first_tile[s], b.slot_particles.data(),
        particles);
    cuda::Check(cudaGetLastError(), "cuda_shared_tiled");
  }
}

void CudaSharedTiledCollide(const triplet_schedule::Schedule& schedule,
                            std::span<const Weight> weights,
                            const Shapes& shapes,
                            std::span<Particle> particles) {
  Check(schedule, weights, shapes, particles);
  CudaSharedTiledCollideTrusted(schedule, weights, shapes, particles);
}

void CudaSharedTiledCollideTrusted(const triplet_schedule::Schedule& schedule,
                                   std::span<const Weight> weights,
                                   const Shapes& shapes,
                                   std::span<Particle> particles) {
  cuda_launch::CollideHostArrays(
      schedule, weights, shapes, particles, "cuda_shared_tiled",
      [&](const device::Scene& scene, float4* device_particles) {
        const device::TiledPlan plan(schedule, particles.size());
        device::CollideSharedTiled(scene, plan, device_particles, nullptr);
        // The plan's buffers must outlive the launches.
        cuda::Check(cudaDeviceSynchronize(), "cuda_shared_tiled");
      });
}

}  // namespace adj::triplet_collide

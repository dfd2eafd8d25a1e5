// cuda_shared: NvCloth's CuCollision::collideVirtualCapsules in its shared
// mode ("simulateShared", docs/triplet_collide.md): one block per cloth, the
// particles copied into shared memory transposed to SoA x[], y[], z[],
// invMass[] (so that a slot's word address is base + c * N + p and its bank
// is p mod 32, the model the warp schedulers optimise), the sets of a warp
// schedule separated by __syncthreads(), thread t on set-local triplets
// t, t + blockDim, ...
//
// Exactness: compiled with --fmad=false (CMake) and using __fdiv_rn /
// __fsqrt_rn (point_collide.h), so each operation rounds as on the host and
// the result equals serial over the same order bit for bit, since a set's
// triplets share no particle (checked on an H100).
//
// The particles must fit the device's opt-in shared memory per block (16
// bytes each: about 14,500 on an H100); more throws triplet_collide::Error,
// where NvCloth would fall back to its global mode (cuda_global).
#include "algorithms/triplet_collide/cuda_launch.cuh"
#include "algorithms/triplet_collide/variants.h"

namespace adj::triplet_collide {
namespace {

__global__ void __launch_bounds__(cuda_launch::kThreads)
    CollideSharedKernel(device::Scene scene, float4* particles) {
  extern __shared__ float shared[];
  const std::uint32_t n = scene.particle_count;
  float* x = shared;
  float* y = x + n;
  float* z = y + n;
  float* inv_mass = z + n;
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float4 p = particles[i];
    x[i] = p.x;
    y[i] = p.y;
    z[i] = p.z;
    inv_mass[i] = p.w;
  }
  const auto position = [&](std::uint32_t i) {
    return point::Vec3{x[i], y[i], z[i]};
  };
  const auto apply = [&](std::uint32_t i, float f, point::Vec3 delta) {
    if (inv_mass[i] == 0.0f) return;
    x[i] += f * delta.x;
    y[i] += f * delta.y;
    z[i] += f * delta.z;
  };
  for (std::uint32_t s = 0; s < scene.sets; ++s) {
    __syncthreads();
    const std::uint32_t end = scene.set_starts[s + 1];
    for (std::uint32_t i = scene.set_starts[s] + threadIdx.x; i < end;
         i += blockDim.x) {
      cuda_launch::CollideTriplet(scene, i, position, apply);
    }
  }
  __syncthreads();
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    particles[i] = make_float4(x[i], y[i], z[i], inv_mass[i]);
  }
}

// The SoA copy of the particles: x, y, z and inverse mass, 4 bytes each.
std::size_t SharedBytes(const device::Scene& scene) {
  return std::size_t{4} * sizeof(float) * scene.particle_count;
}

}  // namespace

void device::PrepareShared(const Scene& scene) {
  const std::size_t bytes = SharedBytes(scene);
  int device = 0;
  cuda::Check(cudaGetDevice(&device), "cudaGetDevice");
  int optin = 0;
  cuda::Check(cudaDeviceGetAttribute(
                  &optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
              "cudaDeviceGetAttribute");
  if (bytes > static_cast<std::size_t>(optin)) {
    throw TooLarge(
        "triplet_collide cuda_shared: " + std::to_string(scene.particle_count) +
        " particles need " + std::to_string(bytes) +
        " bytes of shared memory; a block may have " + std::to_string(optin) +
        " (use cuda_global)");
  }
  cuda::Check(cudaFuncSetAttribute(CollideSharedKernel,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)),
              "cudaFuncSetAttribute");
}

void device::CollideShared(const Scene& scene, float4* particles,
                           cudaStream_t stream) {
  CollideSharedKernel<<<1, cuda_launch::kThreads, SharedBytes(scene), stream>>>(
      scene, particles);
  cuda::Check(cudaGetLastError(), "cuda_shared");
}

void CudaSharedCollide(const triplet_schedule::Schedule& schedule,
                       std::span<const Weight> weights, const Shapes& shapes,
                       std::span<Particle> particles) {
  Check(schedule, weights, shapes, particles);
  CudaSharedCollideTrusted(schedule, weights, shapes, particles);
}

void CudaSharedCollideTrusted(const triplet_schedule::Schedule& schedule,
                              std::span<const Weight> weights,
                              const Shapes& shapes,
                              std::span<Particle> particles) {
  cuda_launch::CollideHostArrays(
      schedule, weights, shapes, particles, "cuda_shared",
      [](const device::Scene& scene, float4* device_particles) {
        device::PrepareShared(scene);
        device::CollideShared(scene, device_particles, nullptr);
      });
}

}  // namespace adj::triplet_collide

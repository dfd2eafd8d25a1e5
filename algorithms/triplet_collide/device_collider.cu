#include <string>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/triplet_collide/cuda_launch.cuh"
#include "algorithms/triplet_collide/device.cuh"
#include "algorithms/triplet_collide/device_collider.h"

namespace adj::triplet_collide {

struct DeviceCollider::Buffers {
  cuda_launch::SceneBuffers scene;
  device::TiledPlan tiled;
  cuda::DeviceBuffer<float4> initial;
  cuda::DeviceBuffer<float4> particles;
};

DeviceCollider::DeviceCollider(const triplet_schedule::Schedule& schedule,
                               std::span<const Weight> weights,
                               const Shapes& shapes,
                               std::span<const Particle> particles) {
  static_assert(sizeof(Particle) == sizeof(float4));
  buffers_.reset(new Buffers{
      cuda_launch::SceneBuffers(schedule, weights, shapes, particles.size(),
                                "device collider"),
      device::TiledPlan(schedule, particles.size()),
      cuda::DeviceBuffer<float4>(particles.size()),
      cuda::DeviceBuffer<float4>(particles.size())});
  buffers_->initial.CopyFromHost(
      reinterpret_cast<const float4*>(particles.data()), particles.size());
}

DeviceCollider::~DeviceCollider() = default;

double DeviceCollider::TimePass(const Variant& variant) {
  Buffers& b = *buffers_;
  const device::Scene scene = b.scene.View();
  const DeviceKernel kernel = variant.traits.kernel;
  const bool shared = kernel == DeviceKernel::kShared;
  const bool tiled = kernel == DeviceKernel::kSharedTiled;
  if (kernel == DeviceKernel::kNone) {
    throw Error("triplet_collide: " + std::string(variant.name) +
                " has no device kernel");
  }
  if (shared) device::PrepareShared(scene);
  cuda::Check(
      cudaMemcpy(b.particles.data(), b.initial.data(),
                 b.particles.size() * sizeof(float4), cudaMemcpyDeviceToDevice),
      "cudaMemcpy particles");
  if (scene.sets == 0) return 0;
  return cuda::TimeOnDevice([&] {
    if (shared) {
      device::CollideShared(scene, b.particles.data(), nullptr);
    } else if (tiled) {
      device::CollideSharedTiled(scene, b.tiled, b.particles.data(), nullptr);
    } else {
      device::CollideGlobal(scene, b.particles.data(), nullptr);
    }
  });
}

std::vector<Particle> DeviceCollider::Particles() const {
  std::vector<Particle> result(buffers_->particles.size());
  buffers_->particles.CopyToHost(reinterpret_cast<float4*>(result.data()),
                                 result.size());
  return result;
}

}  // namespace adj::triplet_collide

#pragma once

// A scene resident on the device, for timing the CUDA variants' kernels
// alone (CUDA builds only): copied once, then each call restores the
// particles (untimed) and times one pass with CUDA events around the device
// entry (cuda::TimeOnDevice, the one way the suite measures device time).
// Plain C++, so that benchmarks compile with the host compiler.

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "algorithms/triplet_collide/triplet_collide.h"

namespace adj::triplet_collide {

class DeviceCollider {
 public:
  // The input is trusted (Check it first); the schedule must be a warp
  // schedule (CheckWarpLayout, else Error). Throws adj::Unavailable without
  // a usable device.
  DeviceCollider(const triplet_schedule::Schedule& schedule,
                 std::span<const Weight> weights, const Shapes& shapes,
                 std::span<const Particle> particles);
  ~DeviceCollider();
  DeviceCollider(const DeviceCollider&) = delete;
  DeviceCollider& operator=(const DeviceCollider&) = delete;

  // Seconds one pass of the CUDA row `variant`'s kernel (its
  // Traits::kernel; the tiled kernel's staging plan the constructor builds)
  // took on the device, from the particles given to the constructor. The
  // shared kernel throws TooLarge where they do not fit; a row without a
  // kernel throws Error.
  double TimePass(const Variant& variant);
  // The particles after the last pass.
  std::vector<Particle> Particles() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::triplet_collide

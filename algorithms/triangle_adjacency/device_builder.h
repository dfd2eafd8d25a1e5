#pragma once

// Triangles resident on the device, for timing the cuda variant's kernels
// alone (CUDA builds only): copied once, then each call times one build with
// CUDA events around device::Build (cuda::TimeOnDevice, the one way the
// suite measures device time). Plain C++, so that benchmarks compile with the
// host compiler.

#include <cstddef>
#include <memory>
#include <span>

#include "algorithms/common/mesh.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triangle_adjacency {

class DeviceBuilder {
 public:
  // The triangles are trusted (Check them first). Throws adj::Unavailable
  // without a usable device.
  DeviceBuilder(std::span<const Triangle> triangles,
                std::size_t particle_count);
  ~DeviceBuilder();
  DeviceBuilder(const DeviceBuilder&) = delete;
  DeviceBuilder& operator=(const DeviceBuilder&) = delete;

  // Seconds one build took on the device.
  double TimeBuild();
  // The rows of the last build (descending order).
  Adjacency Result() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::triangle_adjacency

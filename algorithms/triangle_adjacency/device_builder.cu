#include <cstdint>
#include <limits>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/triangle_adjacency/device.cuh"
#include "algorithms/triangle_adjacency/device_builder.h"

namespace adj::triangle_adjacency {

struct DeviceBuilder::Buffers {
  std::size_t triangles;
  std::uint32_t particles;
  cuda::DeviceBuffer<std::uint32_t> corners;
  cuda::DeviceBuffer<std::uint32_t> offsets;
  cuda::DeviceBuffer<std::uint32_t> indices;
  cuda::DeviceBuffer<std::uint32_t> max_adjacent;
  cuda::DeviceBuffer<unsigned long long> first_bad;
  cuda::DeviceBuffer<unsigned char> temp;
};

DeviceBuilder::DeviceBuilder(std::span<const Triangle> triangles,
                             std::size_t particle_count) {
  CheckEntryCount(triangles.size());
  if (particle_count > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("triangle_adjacency cuda: more than 2^32 - 1 particles");
  }
  cuda::RequireDevice();
  const std::size_t entries = 3 * triangles.size();
  const auto n = static_cast<std::uint32_t>(particle_count);
  buffers_.reset(new Buffers{
      triangles.size(), n, cuda::DeviceBuffer<std::uint32_t>(entries),
      cuda::DeviceBuffer<std::uint32_t>(std::size_t{n} + 1),
      cuda::DeviceBuffer<std::uint32_t>(entries),
      cuda::DeviceBuffer<std::uint32_t>(1),
      cuda::DeviceBuffer<unsigned long long>(1),
      cuda::DeviceBuffer<unsigned char>(
          device::BuildTempBytes(triangles.size(), n))});
  static_assert(sizeof(Triangle) == 3 * sizeof(std::uint32_t));
  if (entries > 0) {
    buffers_->corners.CopyFromHost(
        reinterpret_cast<const std::uint32_t*>(triangles.data()), entries);
  }
}

DeviceBuilder::~DeviceBuilder() = default;

double DeviceBuilder::TimeBuild() {
  Buffers& b = *buffers_;
  return cuda::TimeOnDevice([&] {
    device::Build(b.corners.data(), b.triangles, b.particles, b.offsets.data(),
                  b.indices.data(), b.max_adjacent.data(), b.first_bad.data(),
                  b.temp.data(), nullptr);
  });
}

Adjacency DeviceBuilder::Result() const {
  const Buffers& b = *buffers_;
  Adjacency out;
  out.order = RowOrder::kDescending;
  out.threads = 1;
  out.csr.offsets.resize(std::size_t{b.particles} + 1);
  b.offsets.CopyToHost(out.csr.offsets.data(), out.csr.offsets.size());
  out.csr.indices.resize(b.indices.size());
  if (!out.csr.indices.empty()) {
    b.indices.CopyToHost(out.csr.indices.data(), out.csr.indices.size());
  }
  b.max_adjacent.CopyToHost(&out.max_adjacent, 1);
  return out;
}

}  // namespace adj::triangle_adjacency

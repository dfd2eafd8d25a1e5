#include <algorithm>
#include <string>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/device.cuh"
#include "algorithms/compaction/device_compactor.h"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {

struct DeviceCompactor::Buffers {
  std::size_t n;
  cuda::DeviceBuffer<std::uint32_t> values;
  cuda::DeviceBuffer<std::uint8_t> flags;
  cuda::DeviceBuffer<std::uint32_t> out;
  cuda::DeviceBuffer<std::uint32_t> kept;
  cuda::DeviceBuffer<unsigned char> temp;
};

DeviceCompactor::DeviceCompactor(std::span<const std::uint32_t> values,
                                 std::span<const std::uint8_t> flags) {
  cuda::RequireDevice();
  if (flags.size() != values.size()) {
    throw Error("compaction: DeviceCompactor needs one flag per value");
  }
  const std::size_t n = values.size();
  // Scratch for the larger of the two variants, allocated once, outside
  // timing.
  const std::size_t temp_bytes =
      std::max(device::CompactTempBytes(n), device::CubCompactTempBytes(n));
  buffers_.reset(new Buffers{n, cuda::DeviceBuffer<std::uint32_t>(n),
                             cuda::DeviceBuffer<std::uint8_t>(n),
                             cuda::DeviceBuffer<std::uint32_t>(n),
                             cuda::DeviceBuffer<std::uint32_t>(1),
                             cuda::DeviceBuffer<unsigned char>(temp_bytes)});
  if (n > 0) {
    buffers_->values.CopyFromHost(values.data(), n);
    buffers_->flags.CopyFromHost(flags.data(), n);
  }
  cuda::Check(cudaMemset(buffers_->kept.data(), 0, sizeof(std::uint32_t)),
              "cudaMemset");
}

DeviceCompactor::~DeviceCompactor() = default;

void CudaCompactOnDevice(const std::uint32_t* values, const std::uint8_t* flags,
                         std::size_t n, std::uint32_t* out, std::uint32_t* kept,
                         void* temp) {
  device::Compact(values, flags, n, out, kept, temp, nullptr);
}

void CudaCubCompactOnDevice(const std::uint32_t* values,
                            const std::uint8_t* flags, std::size_t n,
                            std::uint32_t* out, std::uint32_t* kept,
                            void* temp) {
  device::CubCompact(values, flags, n, out, kept, temp, nullptr);
}

double DeviceCompactor::TimeCompact(const Variant& variant) {
  if (variant.traits.device == nullptr) {
    throw Error("compaction: " + std::string(variant.name) +
                " has no device entry");
  }
  Buffers& b = *buffers_;
  return cuda::TimeOnDevice([&] {
    variant.traits.device(b.values.data(), b.flags.data(), b.n, b.out.data(),
                          b.kept.data(), b.temp.data());
  });
}

std::vector<std::uint32_t> DeviceCompactor::Kept() const {
  std::uint32_t kept = 0;
  buffers_->kept.CopyToHost(&kept, 1);
  std::vector<std::uint32_t> result(kept);
  if (kept > 0) buffers_->out.CopyToHost(result.data(), kept);
  return result;
}

}  // namespace adj::compaction

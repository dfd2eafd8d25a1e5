#pragma once

// Values and flags resident on the device, for timing the CUDA variants'
// kernels alone (CUDA builds only): copied once, then each call times one
// compaction with CUDA events around the device entry (cuda::TimeOnDevice,
// the one way the suite measures device time). Plain C++, so that benchmarks
// compile with the host compiler.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "algorithms/compaction/compaction.h"

namespace adj::compaction {

class DeviceCompactor {
 public:
  // The arguments are trusted (equal sizes; at most 2^31 - 1 items for
  // cuda_cub). Throws adj::Unavailable without a usable device.
  DeviceCompactor(std::span<const std::uint32_t> values,
                  std::span<const std::uint8_t> flags);
  ~DeviceCompactor();
  DeviceCompactor(const DeviceCompactor&) = delete;
  DeviceCompactor& operator=(const DeviceCompactor&) = delete;

  // Seconds one compaction by the CUDA row `variant`'s device entry took
  // on the device. Throws Error for a row without one.
  double TimeCompact(const Variant& variant);
  // The kept values of the last compaction, in order.
  std::vector<std::uint32_t> Kept() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::compaction

#pragma once

// Device-resident prefix sums for benchmarks (CUDA builds only): the input is
// copied to the GPU once, and each call times one scan with CUDA events (the
// GPU's own limit beside it: adj::cuda::DeviceCopy). Plain C++, so that
// benchmarks compile with the host compiler.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::prefix_sum {

class DeviceScanner {
 public:
  // Throws adj::Unavailable without a usable device.
  explicit DeviceScanner(std::span<const std::uint32_t> input);
  ~DeviceScanner();
  DeviceScanner(const DeviceScanner&) = delete;
  DeviceScanner& operator=(const DeviceScanner&) = delete;

  // Seconds one scan by the CUDA variant `variant` ("cuda" or "cuda_cub")
  // took on the device, scratch initialisation included.
  double TimeScan(std::string_view variant, Kind kind);
  // The output array after the last scan.
  std::vector<std::uint32_t> Output() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::prefix_sum

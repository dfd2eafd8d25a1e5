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
#include "algorithms/prefix_sum/scan_tiles.h"

namespace adj::prefix_sum {

class DeviceScanner {
 public:
  // Throws adj::Unavailable without a usable device.
  explicit DeviceScanner(std::span<const std::uint32_t> input);
  ~DeviceScanner();
  DeviceScanner(const DeviceScanner&) = delete;
  DeviceScanner& operator=(const DeviceScanner&) = delete;

  // Seconds one scan by the CUDA row `variant`'s device entry took on the
  // device, scratch initialisation included. Throws Error for a row
  // without one.
  double TimeScan(const Variant& variant, Kind kind);
  // Seconds one scan by our look-back kernel in the shape `tile` took (the
  // tuning sweep's rows).
  double TimeScanWith(ScanTile tile, Kind kind);
  // The output array after the last scan.
  std::vector<std::uint32_t> Output() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

// Our look-back kernel in the shape `tile` on a copy of `in` in device
// memory that starts `misalignment` elements past a 256-byte boundary (1..3
// take the kernel's path for arrays that are not 16-byte aligned), scanned in
// place or into a second array likewise placed; returns the output. For the
// tests of every shape the tuning table may pick.
std::vector<std::uint32_t> LookbackScanOnDevice(
    ScanTile tile, Kind kind, std::span<const std::uint32_t> in,
    std::size_t misalignment, bool in_place);

}  // namespace adj::prefix_sum

#pragma once

// Positions resident on the device, for timing the cuda variant's device
// work alone (CUDA builds only): copied once, then each call times one
// device::CellOrderLists with CUDA events (cuda::TimeOnDevice, the one way
// the suite measures device time). The time includes what the entry does
// besides kernels: its scratch allocations and the three sizes it reads
// back. Plain C++, so that benchmarks compile with the host compiler.

#include <memory>

#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid {

class DeviceSearcher {
 public:
  // The input is trusted (Check it first). Throws adj::Unavailable without
  // a usable device.
  DeviceSearcher(const Points& points, const Params& params);
  ~DeviceSearcher();
  DeviceSearcher(const DeviceSearcher&) = delete;
  DeviceSearcher& operator=(const DeviceSearcher&) = delete;

  // Seconds one search took on the device.
  double TimeLists();
  // The lists of the last search (full, cell order) and their candidates.
  Neighbors Lists() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::hash_grid

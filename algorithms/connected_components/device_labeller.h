#pragma once

// A graph resident on the device, for timing cuda_ecl_cc's kernels alone
// (CUDA builds only): copied once, then each call times one labelling with
// CUDA events around device::EclCcLabels (cuda::TimeOnDevice, the one way
// the suite measures device time). Plain C++, so that benchmarks compile
// with the host compiler.

#include <memory>

#include "algorithms/common/csr.h"
#include "algorithms/connected_components/connected_components.h"

namespace adj::connected_components {

class DeviceLabeller {
 public:
  // `graph` is trusted (Check it first). Throws adj::Unavailable without a
  // usable device.
  explicit DeviceLabeller(const Csr& graph);
  ~DeviceLabeller();
  DeviceLabeller(const DeviceLabeller&) = delete;
  DeviceLabeller& operator=(const DeviceLabeller&) = delete;

  // Seconds one labelling took on the device.
  double TimeLabels();
  // The labels of the last labelling, and their count.
  Components Labels() const;

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace adj::connected_components

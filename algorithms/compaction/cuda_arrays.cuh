#pragma once

// Shared by the CUDA compaction variants: the checks, and the values and
// flags copied to the device with room for the output.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/compaction/compaction.h"

namespace adj::compaction {

struct DeviceArrays {
  cuda::DeviceBuffer<std::uint32_t> values;
  cuda::DeviceBuffer<std::uint8_t> flags;
  cuda::DeviceBuffer<std::uint32_t> out;
};

// Checks the arguments (and at most max_items items, for `who`), requires a
// device, and uploads; empty input gives empty buffers.
inline DeviceArrays Upload(std::span<const std::uint32_t> values,
                           std::span<const std::uint8_t> flags,
                           std::span<std::uint32_t> out, std::size_t max_items,
                           const char* who) {
  Check(values, flags, out);
  cuda::RequireDevice();
  const std::size_t n = values.size();
  if (n > max_items) {
    throw Error(std::string("compaction: ") + who + " takes at most " +
                std::to_string(max_items) + " items");
  }
  DeviceArrays arrays{cuda::DeviceBuffer<std::uint32_t>(n),
                      cuda::DeviceBuffer<std::uint8_t>(n),
                      cuda::DeviceBuffer<std::uint32_t>(n)};
  if (n > 0) {
    arrays.values.CopyFromHost(values.data(), n);
    arrays.flags.CopyFromHost(flags.data(), n);
  }
  return arrays;
}

}  // namespace adj::compaction

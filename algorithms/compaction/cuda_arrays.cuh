#pragma once

// Shared by the CUDA compaction variants' host wrappers: the checks, the
// values and flags copied to the device with room for the output and its
// count, and the kept values copied back.

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
  cuda::DeviceBuffer<std::uint32_t> kept;  // one count
  cuda::DeviceBuffer<unsigned char> temp;
};

// Checks the arguments (and at most max_items items, for `who`), requires a
// device, and uploads, with temp_bytes of scratch.
inline DeviceArrays Upload(std::span<const std::uint32_t> values,
                           std::span<const std::uint8_t> flags,
                           std::span<std::uint32_t> out, std::size_t max_items,
                           const char* who,
                           std::size_t (*temp_bytes)(std::size_t)) {
  Check(values, flags, out);
  cuda::RequireDevice();
  const std::size_t n = values.size();
  if (n > max_items) {
    throw Error(std::string("compaction: ") + who + " takes at most " +
                std::to_string(max_items) + " items");
  }
  DeviceArrays arrays{cuda::DeviceBuffer<std::uint32_t>(n),
                      cuda::DeviceBuffer<std::uint8_t>(n),
                      cuda::DeviceBuffer<std::uint32_t>(n),
                      cuda::DeviceBuffer<std::uint32_t>(1),
                      cuda::DeviceBuffer<unsigned char>(temp_bytes(n))};
  if (n > 0) {
    arrays.values.CopyFromHost(values.data(), n);
    arrays.flags.CopyFromHost(flags.data(), n);
  }
  return arrays;
}

// Waits for the device entry enqueued on `arrays` and copies the kept values
// to `out`; returns their count.
inline std::size_t Download(const DeviceArrays& arrays,
                            std::span<std::uint32_t> out, const char* who) {
  cuda::Check(cudaDeviceSynchronize(), who);
  std::uint32_t kept = 0;
  arrays.kept.CopyToHost(&kept, 1);
  if (kept > 0) arrays.out.CopyToHost(out.data(), kept);
  return kept;
}

}  // namespace adj::compaction

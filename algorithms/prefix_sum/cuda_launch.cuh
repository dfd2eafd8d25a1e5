#pragma once

// The host-memory wrapper of prefix_sum's CUDA variants (private to the
// family; other families use device_scan.cuh).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "algorithms/common/cuda_memory.cuh"
#include "algorithms/prefix_sum/device_scan.cuh"
#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::prefix_sum::cuda_launch {

// Host memory in and out, for the variant table: copies, scans, copies back,
// and returns the total (mod 2^32) as the family's contract says.
template <typename ScanOnDevice, typename TempBytes>
std::uint32_t ScanHostArrays(Kind kind, std::span<const std::uint32_t> in,
                             std::span<std::uint32_t> out,
                             ScanOnDevice&& scan_on_device,
                             TempBytes&& temp_bytes) {
  Check(in, out);
  cuda::RequireDevice();
  const std::size_t n = in.size();
  if (n == 0) return 0;
  // The last input is needed for the total of an exclusive scan, and `in` may
  // be overwritten when the scan is in place.
  const std::uint32_t last_input = in[n - 1];
  cuda::DeviceBuffer<std::uint32_t> data(n);
  data.CopyFromHost(in.data(), n);
  const std::size_t scratch_bytes = temp_bytes(kind, n);
  cuda::DeviceBuffer<unsigned char> scratch(scratch_bytes);
  scan_on_device(kind, data.data(), data.data(), n, scratch.data(),
                 scratch_bytes);
  cuda::Check(cudaGetLastError(), "prefix_sum kernel launch");
  cuda::Check(cudaDeviceSynchronize(), "prefix_sum kernel");
  data.CopyToHost(out.data(), n);
  return kind == Kind::kExclusive ? out[n - 1] + last_input : out[n - 1];
}

}  // namespace adj::prefix_sum::cuda_launch

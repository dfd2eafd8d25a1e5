// CUB's DeviceSelect::Flagged: the vendor baseline. Flagged keeps the items
// whose flag is nonzero, the suite's flags remove them, so a first kernel
// negates the flags (CUB 3 dropped its TransformInputIterator). Host memory
// in and out, as the suite's other CUDA variants.
#include <climits>
#include <cstdint>
#include <cub/device/device_select.cuh>

#include "algorithms/compaction/cuda_arrays.cuh"

namespace adj::compaction {
namespace {

__global__ void Negate(const std::uint8_t* flags, std::size_t n,
                       std::uint8_t* keep) {
  const std::size_t i =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) keep[i] = flags[i] == 0 ? 1 : 0;
}

}  // namespace

std::size_t CudaCubCompact(std::span<const std::uint32_t> values,
                           std::span<const std::uint8_t> flags,
                           std::span<std::uint32_t> out) {
  DeviceArrays arrays =
      Upload(values, flags, out, static_cast<std::size_t>(INT_MAX), "cuda_cub");
  const std::size_t n = values.size();
  if (n == 0) return 0;
  const int count = static_cast<int>(n);
  cuda::DeviceBuffer<int> d_kept(1);
  cuda::DeviceBuffer<std::uint8_t> keep(n);
  constexpr unsigned kBlock = 256;
  Negate<<<static_cast<unsigned>((n + kBlock - 1) / kBlock), kBlock>>>(
      arrays.flags.data(), n, keep.data());
  cuda::Check(cudaGetLastError(), "compaction: negate flags");
  std::size_t temp_bytes = 0;
  cuda::Check(cub::DeviceSelect::Flagged(
                  nullptr, temp_bytes, arrays.values.data(), keep.data(),
                  arrays.out.data(), d_kept.data(), count),
              "cub::DeviceSelect::Flagged temp size");
  cuda::DeviceBuffer<std::uint8_t> temp(temp_bytes);
  cuda::Check(cub::DeviceSelect::Flagged(
                  temp.data(), temp_bytes, arrays.values.data(), keep.data(),
                  arrays.out.data(), d_kept.data(), count),
              "cub::DeviceSelect::Flagged");
  cuda::Check(cudaDeviceSynchronize(), "cub::DeviceSelect::Flagged");
  int kept = 0;
  d_kept.CopyToHost(&kept, 1);
  arrays.out.CopyToHost(out.data(), static_cast<std::size_t>(kept));
  return static_cast<std::size_t>(kept);
}

}  // namespace adj::compaction

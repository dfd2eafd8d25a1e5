// CUB's DeviceSelect::Flagged: the vendor baseline. Flagged keeps the items
// whose flag is nonzero, the suite's flags remove them, so a first kernel
// negates the flags (CUB 3 dropped its TransformInputIterator) into the
// scratch, ahead of CUB's own. device::CubCompact is the entry on device
// memory; CudaCubCompact wraps it with the copies.
#include <climits>
#include <cstdint>
#include <cub/device/device_select.cuh>

#include "algorithms/compaction/cuda_arrays.cuh"
#include "algorithms/compaction/device.cuh"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {
namespace {

__global__ void Negate(const std::uint8_t* flags, std::size_t n,
                       std::uint8_t* keep) {
  const std::size_t i =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) keep[i] = flags[i] == 0 ? 1 : 0;
}

constexpr std::size_t kAlignment = 256;
constexpr unsigned kBlock = 256;

std::size_t KeepBytes(std::size_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

// CUB's scratch for n items: its size query reads no pointer, and is made
// with CubCompact's argument types, so that it sizes the same
// instantiation.
std::size_t CubBytes(std::size_t n) {
  std::size_t bytes = 0;
  cuda::Check(cub::DeviceSelect::Flagged(
                  nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                  static_cast<const std::uint8_t*>(nullptr),
                  static_cast<std::uint32_t*>(nullptr),
                  static_cast<std::uint32_t*>(nullptr), static_cast<int>(n)),
              "cub::DeviceSelect::Flagged temp size");
  return bytes;
}

}  // namespace

namespace device {

std::size_t CubCompactTempBytes(std::size_t n) {
  return KeepBytes(n) + CubBytes(n);
}

void CubCompact(const std::uint32_t* values, const std::uint8_t* flags,
                std::size_t n, std::uint32_t* out, std::uint32_t* kept,
                void* temp, cudaStream_t stream) {
  if (n == 0) {
    cuda::Check(cudaMemsetAsync(kept, 0, sizeof(std::uint32_t), stream),
                "cudaMemsetAsync");
    return;
  }
  auto* keep = static_cast<std::uint8_t*>(temp);
  std::size_t cub_bytes = CubBytes(n);
  Negate<<<static_cast<unsigned>((n + kBlock - 1) / kBlock), kBlock, 0,
           stream>>>(flags, n, keep);
  cuda::Check(cudaGetLastError(), "compaction: negate flags");
  cuda::Check(
      cub::DeviceSelect::Flagged(keep + KeepBytes(n), cub_bytes, values,
                                 static_cast<const std::uint8_t*>(keep), out,
                                 kept, static_cast<int>(n), stream),
      "cub::DeviceSelect::Flagged");
}

}  // namespace device

std::size_t CudaCubCompact(std::span<const std::uint32_t> values,
                           std::span<const std::uint8_t> flags,
                           std::span<std::uint32_t> out) {
  const DeviceArrays arrays =
      Upload(values, flags, out, static_cast<std::size_t>(INT_MAX), "cuda_cub",
             &device::CubCompactTempBytes);
  device::CubCompact(arrays.values.data(), arrays.flags.data(), values.size(),
                     arrays.out.data(), arrays.kept.data(), arrays.temp.data(),
                     nullptr);
  return Download(arrays, out, "cub::DeviceSelect::Flagged");
}

}  // namespace adj::compaction

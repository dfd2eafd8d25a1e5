// CUB's DeviceScan (itself a decoupled look-back scan): the vendor baseline our
// own `cuda` kernel is measured against.
#include <climits>
#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "algorithms/prefix_sum/cuda_launch.cuh"
#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {
namespace {

// 32-bit item counts where they fit: CUB picks its offset type from them.
template <typename Call>
cudaError_t WithItemCount(std::size_t n, Call&& call) {
  if (n <= static_cast<std::size_t>(INT_MAX)) {
    return call(static_cast<int>(n));
  }
  return call(static_cast<std::int64_t>(n));
}

}  // namespace

namespace device {

std::size_t CubTempBytes(Kind kind, std::size_t n) {
  std::size_t bytes = 0;
  const std::uint32_t* no_input = nullptr;
  std::uint32_t* no_output = nullptr;
  cuda::Check(WithItemCount(n,
                            [&](auto count) {
                              return kind == Kind::kExclusive
                                         ? cub::DeviceScan::ExclusiveSum(
                                               nullptr, bytes, no_input,
                                               no_output, count)
                                         : cub::DeviceScan::InclusiveSum(
                                               nullptr, bytes, no_input,
                                               no_output, count);
                            }),
              "cub::DeviceScan temp size");
  return bytes;
}

void CubScan(Kind kind, const std::uint32_t* in, std::uint32_t* out,
             std::size_t n, void* temp, std::size_t temp_bytes,
             cudaStream_t stream) {
  if (n == 0) return;
  cuda::Check(WithItemCount(
                  n,
                  [&](auto count) {
                    return kind == Kind::kExclusive
                               ? cub::DeviceScan::ExclusiveSum(
                                     temp, temp_bytes, in, out, count, stream)
                               : cub::DeviceScan::InclusiveSum(
                                     temp, temp_bytes, in, out, count, stream);
                  }),
              "cub::DeviceScan");
}

}  // namespace device

std::uint32_t CudaCubScan(Kind kind, std::span<const std::uint32_t> in,
                          std::span<std::uint32_t> out) {
  return cuda_launch::ScanHostArrays(
      kind, in, out,
      [](Kind k, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
         void* temp, std::size_t temp_bytes) {
        device::CubScan(k, d_in, d_out, n, temp, temp_bytes, nullptr);
      },
      [](Kind k, std::size_t n) { return device::CubTempBytes(k, n); });
}

}  // namespace adj::prefix_sum

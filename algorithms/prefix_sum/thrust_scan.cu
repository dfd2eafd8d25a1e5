// Thrust's inclusive_scan / exclusive_scan on device pointers with the
// thrust::device policy, as Thrust's documentation calls them: the GPU
// peer beside CUB. Thrust allocates its own temporary storage on every
// call (a user of the plain policy pays that), so the scratch the suite
// offers is left unused.
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <cstdint>

#include "algorithms/prefix_sum/cuda_launch.cuh"
#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {

void ThrustScanOnDevice(Kind kind, const std::uint32_t* in, std::uint32_t* out,
                        std::size_t n, void* /*scratch*/,
                        std::size_t /*scratch_bytes*/) {
  if (n == 0) return;
  if (kind == Kind::kExclusive) {
    thrust::exclusive_scan(thrust::device, in, in + n, out, std::uint32_t{0});
  } else {
    thrust::inclusive_scan(thrust::device, in, in + n, out);
  }
}

std::uint32_t ThrustScan(Kind kind, std::span<const std::uint32_t> in,
                         std::span<std::uint32_t> out) {
  return cuda_launch::ScanHostArrays(
      kind, in, out,
      [](Kind k, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
         void* scratch, std::size_t scratch_bytes) {
        ThrustScanOnDevice(k, d_in, d_out, n, scratch, scratch_bytes);
      },
      [](Kind, std::size_t) { return std::size_t{0}; });
}

}  // namespace adj::prefix_sum

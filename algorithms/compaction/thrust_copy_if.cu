// Thrust's copy_if with a stencil, on device pointers with the
// thrust::device policy, as Thrust's documentation calls it: the GPU peer
// beside CUB. The suite's flags remove items, so the predicate keeps a zero
// flag. Thrust allocates its temporary storage per call and returns the
// output's end, from which the count follows (the call waits for the
// device to do so); the scratch the suite offers is left unused.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <climits>
#include <cstdint>

#include "algorithms/compaction/cuda_arrays.cuh"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {
namespace {

struct FlagIsZero {
  __host__ __device__ bool operator()(std::uint8_t flag) const {
    return flag == 0;
  }
};

std::size_t NoScratch(std::size_t) { return 0; }

}  // namespace

void ThrustCompactOnDevice(const std::uint32_t* values,
                           const std::uint8_t* flags, std::size_t n,
                           std::uint32_t* out, std::uint32_t* kept,
                           void* /*temp*/) {
  const std::uint32_t* const end =
      n == 0 ? out
             : thrust::copy_if(thrust::device, values, values + n, flags, out,
                               FlagIsZero{});
  const auto count = static_cast<std::uint32_t>(end - out);
  cuda::Check(cudaMemcpy(kept, &count, sizeof count, cudaMemcpyHostToDevice),
              "thrust: the kept count to the device");
}

std::size_t ThrustCompact(std::span<const std::uint32_t> values,
                          std::span<const std::uint8_t> flags,
                          std::span<std::uint32_t> out) {
  // The count is carried in a uint32, as by the other CUDA rows.
  const DeviceArrays arrays =
      Upload(values, flags, out, static_cast<std::size_t>(UINT_MAX), "thrust",
             &NoScratch);
  ThrustCompactOnDevice(arrays.values.data(), arrays.flags.data(),
                        values.size(), arrays.out.data(), arrays.kept.data(),
                        nullptr);
  return Download(arrays, out, "thrust::copy_if");
}

}  // namespace adj::compaction

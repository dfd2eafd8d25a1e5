#include "algorithms/prefix_sum/prefix_sum.h"

#include <array>
#include <functional>
#include <string>

namespace adj::prefix_sum {

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"serial", Backend::kSerial,
            "the textbook loop: one running sum, one pass", &SerialScan},
    Variant{"simd", Backend::kSimd,
            "Highway, dynamic dispatch: in-register scan of 128-bit blocks "
            "plus a broadcast carry; streaming stores for large n",
            &SimdScan},
    Variant{"openmp", Backend::kOpenMp,
            "blocked two-pass scan (per-thread block sums, scan of the "
            "sums, rescan), cache-sized blocks so memory is read once",
            &OpenMpScan},
#if ADJ_HAVE_CUDA
    Variant{"cuda", Backend::kCuda,
            "our single-pass decoupled look-back kernel (Merrill & "
            "Garland), host memory in and out",
            &CudaLookbackScan},
    Variant{"cuda_cub", Backend::kCuda,
            "cub::DeviceScan::InclusiveSum / ExclusiveSum, host memory in "
            "and out",
            &CudaCubScan},
#endif
  };
  return kVariants;
}

void CheckArguments(std::span<const std::uint32_t> in,
                    std::span<const std::uint32_t> out) {
  if (in.size() != out.size()) {
    throw Error("prefix_sum: output has " + std::to_string(out.size()) +
                " elements but input has " + std::to_string(in.size()));
  }
  if (in.empty() || in.data() == out.data()) return;
  // std::less gives a total order on pointers into unrelated arrays.
  const std::less<const std::uint32_t*> before;
  const bool disjoint = !before(out.data(), in.data() + in.size()) ||
                        !before(in.data(), out.data() + out.size());
  if (!disjoint) {
    throw Error(
        "prefix_sum: output overlaps input without being the same array");
  }
}

}  // namespace adj::prefix_sum

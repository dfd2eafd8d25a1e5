#include "algorithms/prefix_sum/prefix_sum.h"

#include <array>
#include <string>

#include "algorithms/common/spans.h"
#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {

std::uint32_t Scan(Kind kind, std::span<const std::uint32_t> in,
                   std::span<std::uint32_t> out) {
  return SerialScan(kind, in, out);
}

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"serial", Backend::kSerial, Origin::kBaseline,
            "the textbook loop: one running sum, one pass", &SerialScan},
    Variant{"simd", Backend::kSimd, Origin::kOurs,
            "Highway, dynamic dispatch: in-register scan of 128-bit blocks "
            "plus a broadcast carry; streaming stores for large n",
            &SimdScan},
    Variant{"openmp", Backend::kOpenMp, Origin::kOurs,
            "blocked two-pass scan (per-thread block sums, scan of the "
            "sums, rescan), cache-sized blocks so memory is read once",
            &OpenMpScan, "serial"},
    Variant{.name = "std_par",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description = "std::inclusive_scan / std::exclusive_scan with "
                           "std::execution::par_unseq (libstdc++'s parallel "
                           "algorithms on oneTBB's threads)",
            .run = &StdParScan,
            .threads = &peers::OneTbbThreads,
            .peer = &peers::StdParallel},
    Variant{.name = "tbb_parallel_scan",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "tbb::parallel_scan over a blocked_range with a pre-scan "
                "and final-scan body, as oneTBB's documentation shows a "
                "running sum; default partitioner",
            .run = &TbbParallelScan,
            .threads = &peers::OneTbbThreads,
            .peer = &peers::OneTbb},
#if ADJ_HAVE_CUDA
    Variant{"cuda",
            Backend::kCuda,
            Origin::kOurs,
            "our single-pass decoupled look-back kernel (Merrill & "
            "Garland), host memory in and out",
            &CudaLookbackScan,
            {},
            nullptr,
            {},
            nullptr,
            Traits{&CudaLookbackScanOnDevice}},
    Variant{"cuda_cub",
            Backend::kCuda,
            Origin::kBaseline,
            "cub::DeviceScan::InclusiveSum / ExclusiveSum, host memory in "
            "and out",
            &CudaCubScan,
            {},
            nullptr,
            {},
            nullptr,
            Traits{&CudaCubScanOnDevice}},
    Variant{.name = "thrust",
            .backend = Backend::kCuda,
            .origin = Origin::kPeer,
            .description = "thrust::inclusive_scan / exclusive_scan with the "
                           "thrust::device policy (temporary storage "
                           "allocated by Thrust per call), host memory in "
                           "and out",
            .run = &ThrustScan,
            .traits = Traits{&ThrustScanOnDevice},
            .peer = &peers::Thrust},
#endif
  };
  return kVariants;
}

void Check(std::span<const std::uint32_t> in,
           std::span<const std::uint32_t> out) {
  if (in.size() != out.size()) {
    throw Error("prefix_sum: output has " + std::to_string(out.size()) +
                " elements but input has " + std::to_string(in.size()));
  }
  if (PartiallyOverlaps(in, out)) {
    throw Error(
        "prefix_sum: output overlaps input without being the same array");
  }
}

}  // namespace adj::prefix_sum

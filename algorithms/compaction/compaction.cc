#include "algorithms/compaction/compaction.h"

#include <array>
#include <string>

#include "algorithms/common/spans.h"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {

namespace {

// The openmp row's threads out of place (in place it forks no more).
int OutOfPlaceThreads(std::size_t n) {
  return OpenMpCompactThreads(n, /*in_place=*/false);
}

}  // namespace

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"serial", Backend::kSerial, Origin::kBaseline,
            "the textbook loop, branch-free: write every value, advance the "
            "output only past kept ones",
            &SerialCompact},
    Variant{"branchy", Backend::kSerial, Origin::kBaseline,
            "the textbook loop with a branch: copy a value only when it is "
            "kept (what branch-free serial saves on mispredictions)",
            &BranchyCompact},
    Variant{"simd", Backend::kSimd, Origin::kOurs,
            "Highway, dynamic dispatch: a vector of values, its flags widened "
            "to a mask, CompressStore of the kept lanes",
            &SimdCompact},
    Variant{"openmp",
            Backend::kOpenMp,
            Origin::kOurs,
            "chunks of 2^17 dealt to threads in turn: count a chunk's "
            "flags, wait for the previous chunk's published end, publish "
            "its own, compact it there with the simd kernel (one pass); in "
            "place, slices compacted where they lie, then moved down",
            &OpenMpCompact,
            "serial",
            nullptr,
            {},
            &OutOfPlaceThreads},
    Variant{.name = "std_par",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "std::transform_exclusive_scan of the kept flags into "
                "positions, then std::for_each over blocks scattering the "
                "kept values, both std::execution::par_unseq (libstdc++'s "
                "parallel algorithms on oneTBB's threads); in place, the "
                "values copied first",
            .run = &StdParCompact,
            .threads = &peers::OneTbbThreads,
            .peer = &peers::StdParallel},
    Variant{.name = "tbb_parallel_scan",
            .backend = Backend::kTbb,
            .origin = Origin::kPeer,
            .description =
                "tbb::parallel_scan over a blocked_range, the running sum "
                "the kept count: the pre-scan counts, the final scan writes "
                "the kept values; in place, the values copied first",
            .run = &TbbParallelScanCompact,
            .threads = &peers::OneTbbThreads,
            .peer = &peers::OneTbb},
#if ADJ_HAVE_CUDA
    Variant{"cuda_cub",
            Backend::kCuda,
            Origin::kBaseline,
            "cub::DeviceSelect::Flagged over the negated flags, host memory "
            "in and out",
            &CudaCubCompact,
            {},
            nullptr,
            {},
            nullptr,
            Traits{&CudaCubCompactOnDevice}},
    Variant{"cuda",
            Backend::kCuda,
            Origin::kOurs,
            "per-tile counts by warp ballots, the suite's own "
            "decoupled look-back scan of the tile counts, then a stable "
            "scatter (ballot ranks within warps, warp offsets in shared "
            "memory); host memory in and out",
            &CudaCompact,
            {},
            nullptr,
            {},
            nullptr,
            Traits{&CudaCompactOnDevice}},
    Variant{.name = "thrust",
            .backend = Backend::kCuda,
            .origin = Origin::kPeer,
            .description = "thrust::copy_if with the flags as stencil and "
                           "the thrust::device policy (temporary storage "
                           "allocated by Thrust per call), host memory in "
                           "and out",
            .run = &ThrustCompact,
            .traits = Traits{&ThrustCompactOnDevice},
            .peer = &peers::Thrust},
#endif
  };
  return kVariants;
}

void Check(std::span<const std::uint32_t> values,
           std::span<const std::uint8_t> flags,
           std::span<const std::uint32_t> out) {
  if (flags.size() != values.size() || out.size() != values.size()) {
    throw Error("compaction: " + std::to_string(values.size()) +
                " values need as many flags and output slots, got " +
                std::to_string(flags.size()) + " flags and " +
                std::to_string(out.size()) + " slots");
  }
  if (PartiallyOverlaps(values, out)) {
    throw Error(
        "compaction: output overlaps the values without being the same array");
  }
}

}  // namespace adj::compaction

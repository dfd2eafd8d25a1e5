#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/variants.h"

namespace adj::prefix_sum {
namespace {

// Below this many elements per thread, forking costs more than it saves.
constexpr std::size_t kMinElementsPerThread = std::size_t{1} << 15;

}  // namespace

// The blocked two-pass scan (as in GAP's ParallelPrefixSum): each thread sums
// its contiguous slice, one barrier, then rescans its slice starting from the
// sum of the slices before it. One barrier in all: on small shared machines
// barriers, not bandwidth, decided (a cache-blocked version with a barrier per
// 64 KiB block ran slower than the serial loop on a 2-vCPU VM). The price is a
// second read of the input: 3n memory traffic instead of memcpy's 2n.
std::uint32_t OpenMpScan(Kind kind, std::span<const std::uint32_t> in,
                         std::span<std::uint32_t> out) {
  Check(in, out);
  const std::size_t n = in.size();
  const int threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(omp_get_max_threads()),
                            n / kMinElementsPerThread));
  if (threads <= 1) return SerialScan(kind, in, out);
  const bool exclusive = kind == Kind::kExclusive;
  const std::uint32_t* source = in.data();
  std::uint32_t* target = out.data();
  std::vector<std::uint32_t> slice_sums(static_cast<std::size_t>(threads));

  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t count = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t begin = n * thread / count;
    const std::size_t end = n * (thread + 1) / count;
    trap.Run([&] {
      fault::Point("prefix_sum.openmp.sums");
      std::uint32_t sum = 0;
      for (std::size_t i = begin; i < end; ++i) sum += source[i];
      slice_sums[thread] = sum;
    });
#pragma omp barrier
    trap.Run([&] {
      std::uint32_t running = 0;
      for (std::size_t t = 0; t < thread; ++t) running += slice_sums[t];
      if (exclusive) {
        for (std::size_t i = begin; i < end; ++i) {
          const std::uint32_t value = source[i];  // out may alias in
          target[i] = running;
          running += value;
        }
      } else {
        for (std::size_t i = begin; i < end; ++i) {
          running += source[i];
          target[i] = running;
        }
      }
    });
  }
  trap.Rethrow();
  std::uint32_t total = 0;
  for (const std::uint32_t sum : slice_sums) total += sum;
  return total;
}

}  // namespace adj::prefix_sum

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::prefix_sum {
namespace {

// Each thread owns one block per round. A block this size (64 KiB) is still in
// the thread's L2 when it is rescanned, so DRAM sees one read and one write
// per element, like memcpy, instead of the two reads of a plain two-pass scan.
constexpr std::size_t kBlockElements = std::size_t{1} << 14;

}  // namespace

std::uint32_t OpenMpScan(Kind kind, std::span<const std::uint32_t> in,
                         std::span<std::uint32_t> out) {
  CheckArguments(in, out);
  const std::size_t n = in.size();
  const int max_threads = omp_get_max_threads();
  // Below a few rounds the fork and barriers cost more than they save.
  if (max_threads == 1 || n < 4 * kBlockElements) {
    return SerialScan(kind, in, out);
  }
  const bool exclusive = kind == Kind::kExclusive;
  const std::uint32_t* source = in.data();
  std::uint32_t* target = out.data();
  std::vector<std::uint32_t> block_sums(static_cast<std::size_t>(max_threads));
  std::uint32_t carry = 0;  // sum of all rounds before the current one

#pragma omp parallel num_threads(max_threads)
  {
    const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t threads = static_cast<std::size_t>(omp_get_num_threads());
    for (std::size_t round = 0; round < n; round += threads * kBlockElements) {
      const std::size_t begin = std::min(n, round + thread * kBlockElements);
      const std::size_t end = std::min(n, begin + kBlockElements);
      std::uint32_t sum = 0;
      for (std::size_t i = begin; i < end; ++i) sum += source[i];
      block_sums[thread] = sum;
#pragma omp barrier
      std::uint32_t running = carry;
      for (std::size_t t = 0; t < thread; ++t) running += block_sums[t];
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
      // Everyone has read `carry` and the sums before they change.
#pragma omp barrier
#pragma omp single
      {
        for (std::size_t t = 0; t < threads; ++t) carry += block_sums[t];
      }  // implicit barrier: the new carry is visible to all
    }
  }
  return carry;
}

}  // namespace adj::prefix_sum

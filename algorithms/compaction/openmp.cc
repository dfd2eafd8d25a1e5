// Ours: count, scan, scatter over contiguous slices, one per thread.
//   - Out of place: each thread counts the kept items of its slice (one pass
//     over the flags, a quarter of the values' bytes), one barrier, then
//     compacts its slice with the simd kernel straight to where the slices
//     before it end: values are read once, out written once.
//   - In place: a thread's destination may be a slice another thread has
//     not read yet, so each thread first compacts its slice where it lies,
//     then the kept runs move down in slice order (memmove; each run's
//     destination ends at or before its source, and earlier runs are placed
//     first).
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "algorithms/compaction/compact_kernel.h"
#include "algorithms/compaction/compaction.h"

namespace adj::compaction {
namespace {

// Below this many items per thread the fork and barrier cost more than
// the slice saves.
constexpr std::size_t kMinItemsPerThread = std::size_t{1} << 16;

}  // namespace

std::size_t OpenMpCompactTuned(std::span<const std::uint32_t> values,
                               std::span<const std::uint8_t> flags,
                               std::span<std::uint32_t> out,
                               std::size_t min_items_per_thread) {
  CheckArguments(values, flags, out);
  const std::size_t n = values.size();
  const int threads = static_cast<int>(std::clamp<std::size_t>(
      n / std::max<std::size_t>(min_items_per_thread, 1), 1,
      static_cast<std::size_t>(omp_get_max_threads())));
  if (threads == 1) {
    return detail::CompactKernel(values.data(), flags.data(), n, out.data(), n);
  }
  const bool in_place = values.data() == out.data();
  std::vector<std::size_t> kept(static_cast<std::size_t>(threads) + 1, 0);
  std::vector<std::size_t> begin(static_cast<std::size_t>(threads) + 1, n);
  std::size_t total = 0;

#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t b = n * t / team;
    const std::size_t e = n * (t + 1) / team;
    begin[t] = b;
    if (in_place) {
      kept[t] = detail::CompactKernel(values.data() + b, flags.data() + b,
                                      e - b, out.data() + b, e - b);
    } else {
      kept[t] = detail::CountKeptKernel(flags.data() + b, e - b);
    }
#pragma omp barrier
    std::size_t offset = 0;
    for (std::size_t u = 0; u < t; ++u) offset += kept[u];
    if (!in_place) {
      // Room = what this slice keeps: the next slice's output starts there.
      detail::CompactKernel(values.data() + b, flags.data() + b, e - b,
                            out.data() + offset, kept[t]);
    }
#pragma omp single
    {
      std::size_t destination = 0;
      for (std::size_t u = 0; u < team; ++u) {
        if (in_place && destination != begin[u] && kept[u] != 0) {
          std::memmove(out.data() + destination, out.data() + begin[u],
                       kept[u] * sizeof(std::uint32_t));
        }
        destination += kept[u];
      }
      total = destination;
    }
  }
  return total;
}

std::size_t OpenMpCompact(std::span<const std::uint32_t> values,
                          std::span<const std::uint8_t> flags,
                          std::span<std::uint32_t> out) {
  return OpenMpCompactTuned(values, flags, out, kMinItemsPerThread);
}

}  // namespace adj::compaction

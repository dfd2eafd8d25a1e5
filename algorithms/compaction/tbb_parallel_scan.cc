// oneTBB's tbb::parallel_scan as its documentation shows a scan, its
// running sum the number of kept values: the pre-scan counts a range's
// kept values, the final scan writes them from the carry. Final scans of
// different ranges run at once and write below their own range when
// values were removed before it, so in place the values are copied first.
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_scan.h>

#include <vector>
#endif

namespace adj::compaction {

std::size_t TbbParallelScanCompact(std::span<const std::uint32_t> values,
                                   std::span<const std::uint8_t> flags,
                                   std::span<std::uint32_t> out) {
  Check(values, flags, out);
  if (values.empty()) return 0;
#if ADJ_HAVE_PEER_ONETBB
  std::vector<std::uint32_t> copy;
  std::span<const std::uint32_t> source = values;
  if (values.data() == out.data()) {
    copy.assign(values.begin(), values.end());
    source = copy;
  }
  return tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, source.size()), std::size_t{0},
      [&](const tbb::blocked_range<std::size_t>& range, std::size_t kept,
          bool is_final_scan) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) {
          if (flags[i] != 0) continue;
          if (is_final_scan) out[kept] = source[i];
          ++kept;
        }
        return kept;
      },
      [](std::size_t left, std::size_t right) { return left + right; });
#else
  (void)out;
  throw Unavailable("tbb_parallel_scan: oneTBB was not found at build time");
#endif
}

}  // namespace adj::compaction

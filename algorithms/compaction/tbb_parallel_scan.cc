// oneTBB's tbb::parallel_scan as its documentation shows a scan, its
// running sum the number of kept values: the pre-scan counts a range's
// kept values, the final scan writes them from the carry. Final scans of
// different ranges run at once and write below their own range when
// values were removed before it, so in place the values are copied first.
// The body is the serial row's, without a branch on the flag (each value
// written to the next free slot, which a kept one then claims): with a
// branch, random flags cost a misprediction every other value, a cost of
// the body, not of the library. A range's removed values after its
// last kept one are not written: the slots after its own are the next
// range's.
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
        if (!is_final_scan) {
          for (std::size_t i = range.begin(); i < range.end(); ++i) {
            kept += flags[i] == 0 ? 1 : 0;
          }
          return kept;
        }
        std::size_t end = range.end();
        while (end > range.begin() && flags[end - 1] != 0) --end;
        for (std::size_t i = range.begin(); i < end; ++i) {
          out[kept] = source[i];
          kept += flags[i] == 0 ? 1 : 0;
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

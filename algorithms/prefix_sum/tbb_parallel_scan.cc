// oneTBB's tbb::parallel_scan as its documentation shows it for a running
// sum: a body whose pre-scan sums a range and whose final scan writes it
// from the carry, on oneTBB's threads with its default partitioner. Each
// element is read before it is written within one range, so the output
// may be the input.
#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_scan.h>
#endif

namespace adj::prefix_sum {

std::uint32_t TbbParallelScan(Kind kind, std::span<const std::uint32_t> in,
                              std::span<std::uint32_t> out) {
  Check(in, out);
  if (in.empty()) return 0;
#if ADJ_HAVE_PEER_ONETBB
  const bool inclusive = kind == Kind::kInclusive;
  return tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, in.size()), std::uint32_t{0},
      [&](const tbb::blocked_range<std::size_t>& range, std::uint32_t sum,
          bool is_final_scan) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) {
          const std::uint32_t value = in[i];  // read first: out may be in
          if (is_final_scan && !inclusive) out[i] = sum;
          sum += value;
          if (is_final_scan && inclusive) out[i] = sum;
        }
        return sum;
      },
      [](std::uint32_t left, std::uint32_t right) { return left + right; });
#else
  (void)kind;
  throw Unavailable("tbb_parallel_scan: oneTBB was not found at build time");
#endif
}

}  // namespace adj::prefix_sum

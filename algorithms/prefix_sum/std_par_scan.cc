// The standard library's parallel scans as a user calls them:
// std::inclusive_scan / std::exclusive_scan with std::execution::par_unseq
// (libstdc++'s parallel algorithms, which run on oneTBB's threads). Both
// allow the output to be the input, as the family's contract does.
#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <execution>
#include <numeric>
#endif

namespace adj::prefix_sum {

std::uint32_t StdParScan(Kind kind, std::span<const std::uint32_t> in,
                         std::span<std::uint32_t> out) {
  Check(in, out);
  if (in.empty()) return 0;
#if ADJ_HAVE_PEER_ONETBB
  // Read before the scan: it may overwrite the input.
  const std::uint32_t last = in.back();
  if (kind == Kind::kInclusive) {
    std::inclusive_scan(std::execution::par_unseq, in.begin(), in.end(),
                        out.begin());
    return out.back();
  }
  std::exclusive_scan(std::execution::par_unseq, in.begin(), in.end(),
                      out.begin(), std::uint32_t{0});
  return out.back() + last;
#else
  (void)kind;
  throw Unavailable("std_par: oneTBB was not found at build time");
#endif
}

}  // namespace adj::prefix_sum

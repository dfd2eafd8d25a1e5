// The standard library's parallel algorithms composed as a user composes a
// flagged copy (std::copy_if's predicate sees a value, not its flag in a
// parallel array): std::transform_exclusive_scan of the kept flags into
// each kept value's position, then std::for_each over blocks of 2^14
// items, each scattering its kept values there, both with
// std::execution::par_unseq (libstdc++'s parallel algorithms on oneTBB's
// threads; blocks because an element the algorithm hands over may be a
// copy, so its index cannot be taken from its address). The scatter reads
// values other threads may be writing when out is values: in place, the values
// are copied first. The scatter writes every value of a block up to its
// last kept one to its position, without a branch on the flag (a removed
// value's position is the next kept value's, which overwrites it later in
// the same block), as the serial row does: with a branch, random flags
// cost a misprediction every other value, a cost of the body, not of the
// library. The removed values after a block's last kept one are not
// written: their position is the next block's.
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"

#if ADJ_HAVE_PEER_ONETBB
#include <algorithm>
#include <execution>
#include <numeric>
#include <vector>
#endif

namespace adj::compaction {

std::size_t StdParCompact(std::span<const std::uint32_t> values,
                          std::span<const std::uint8_t> flags,
                          std::span<std::uint32_t> out) {
  Check(values, flags, out);
  const std::size_t n = values.size();
  if (n == 0) return 0;
#if ADJ_HAVE_PEER_ONETBB
  std::vector<std::uint32_t> position(n);
  std::transform_exclusive_scan(
      std::execution::par_unseq, flags.begin(), flags.end(), position.begin(),
      std::uint32_t{0}, std::plus<>(),
      [](std::uint8_t flag) { return std::uint32_t{flag == 0}; });
  const auto kept =
      static_cast<std::size_t>(position.back()) + (flags.back() == 0 ? 1 : 0);
  std::vector<std::uint32_t> copy;
  std::span<const std::uint32_t> source = values;
  if (values.data() == out.data()) {
    copy.assign(values.begin(), values.end());
    source = copy;
  }
  constexpr std::size_t kBlock = std::size_t{1} << 14;
  std::vector<std::size_t> blocks((n + kBlock - 1) / kBlock);
  for (std::size_t b = 0; b < blocks.size(); ++b) blocks[b] = b * kBlock;
  std::for_each(std::execution::par_unseq, blocks.begin(), blocks.end(),
                [&](std::size_t begin) {
                  std::size_t end = std::min(begin + kBlock, n);
                  while (end > begin && flags[end - 1] != 0) --end;
                  for (std::size_t i = begin; i < end; ++i) {
                    out[position[i]] = source[i];
                  }
                });
  return kept;
#else
  (void)out;
  throw Unavailable("std_par: oneTBB was not found at build time");
#endif
}

}  // namespace adj::compaction

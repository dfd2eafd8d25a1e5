// The textbook loop with a branch: copy a value only when it is kept. Beside
// `serial` (branch-free) it shows what mispredicted branches cost when about
// half the flags are set.
#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {

std::size_t BranchyCompact(std::span<const std::uint32_t> values,
                           std::span<const std::uint8_t> flags,
                           std::span<std::uint32_t> out) {
  Check(values, flags, out);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    // kept <= i, so in place this overwrites only values already read.
    if (flags[i] == 0) out[kept++] = values[i];
  }
  return kept;
}

}  // namespace adj::compaction

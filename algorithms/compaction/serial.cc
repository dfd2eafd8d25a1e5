#include "algorithms/compaction/compaction.h"
#include "algorithms/compaction/variants.h"

namespace adj::compaction {

std::size_t SerialCompact(std::span<const std::uint32_t> values,
                          std::span<const std::uint8_t> flags,
                          std::span<std::uint32_t> out) {
  Check(values, flags, out);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Written before kept moves, so in place it only ever overwrites a
    // value already read.
    const std::uint32_t value = values[i];
    out[kept] = value;
    kept += flags[i] == 0 ? 1 : 0;
  }
  return kept;
}

}  // namespace adj::compaction

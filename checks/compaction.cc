#include "checks/compaction.h"

#include "reference/compaction.h"

namespace adj::checks::compaction {

std::vector<std::uint32_t> Expected(std::span<const std::uint32_t> values,
                                    std::span<const std::uint8_t> flags) {
  return reference::Compacted(values, flags);
}

std::string FirstDifference(std::span<const std::uint32_t> expected,
                            std::size_t kept,
                            std::span<const std::uint32_t> out) {
  if (kept != expected.size()) {
    return "kept " + std::to_string(kept) + " items, expected " +
           std::to_string(expected.size());
  }
  if (kept > out.size()) return "kept more items than out holds";
  for (std::size_t i = 0; i < kept; ++i) {
    if (out[i] != expected[i]) {
      return "item " + std::to_string(i) + " is " + std::to_string(out[i]) +
             ", expected " + std::to_string(expected[i]);
    }
  }
  return "";
}

}  // namespace adj::checks::compaction

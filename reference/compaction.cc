#include "reference/compaction.h"

#include <algorithm>
#include <stdexcept>

namespace adj::reference {

std::vector<std::uint32_t> Compacted(std::span<const std::uint32_t> values,
                                     std::span<const std::uint8_t> flags) {
  if (flags.size() != values.size()) {
    throw std::invalid_argument("Compacted: one flag per value");
  }
  std::vector<std::uint32_t> kept;
  std::size_t i = 0;
  std::copy_if(values.begin(), values.end(), std::back_inserter(kept),
               [&](std::uint32_t) { return flags[i++] == 0; });
  return kept;
}

}  // namespace adj::reference

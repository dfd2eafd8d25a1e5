#include "scenes/arrays.h"

#include <random>

namespace adj::scenes {

std::vector<std::uint32_t> RandomCounts(std::size_t n, std::uint64_t seed,
                                        std::uint32_t max_count) {
  std::mt19937_64 engine(seed);
  std::vector<std::uint32_t> values(n);
  const std::uint64_t range = std::uint64_t{max_count} + 1;
  for (auto& value : values) {
    // The modulo bias is below 2^-59 for small ranges; determinism matters
    // more here than exact uniformity.
    value = static_cast<std::uint32_t>(engine() % range);
  }
  return values;
}

std::vector<std::uint32_t> RandomWords(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::vector<std::uint32_t> values(n);
  for (auto& value : values) value = static_cast<std::uint32_t>(engine() >> 32);
  return values;
}

}  // namespace adj::scenes

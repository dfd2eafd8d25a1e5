#include "reference/hash_set.h"

#include <algorithm>

namespace adj::reference {

std::vector<std::uint32_t> DistinctKeys(
    std::span<const std::uint32_t> inserted) {
  std::vector<std::uint32_t> keys(inserted.begin(), inserted.end());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::vector<std::uint8_t> MembershipAnswers(
    std::span<const std::uint32_t> distinct_keys,
    std::span<const std::uint32_t> queries) {
  std::vector<std::uint8_t> answers(queries.size());
  for (std::size_t i = 0; i < queries.size(); ++i) {
    answers[i] = std::binary_search(distinct_keys.begin(), distinct_keys.end(),
                                    queries[i])
                     ? 1
                     : 0;
  }
  return answers;
}

}  // namespace adj::reference

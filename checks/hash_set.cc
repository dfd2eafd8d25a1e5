#include "checks/hash_set.h"

#include <algorithm>

#include "reference/hash_set.h"

namespace adj::checks::hash_set {

Expected ExpectedOf(std::span<const std::uint32_t> inserted) {
  return {reference::DistinctKeys(inserted)};
}

std::vector<std::uint8_t> AnswersOf(const Expected& expected,
                                    std::span<const std::uint32_t> queries) {
  return reference::MembershipAnswers(expected.keys, queries);
}

std::string FirstDifferenceInKeys(const Expected& expected,
                                  const adj::hash_set::Set& set) {
  return FirstDifferenceInKeys(expected, set.Size(), set.Keys());
}

std::string FirstDifferenceInKeys(const Expected& expected, std::size_t size,
                                  std::vector<std::uint32_t> stored) {
  if (size != expected.keys.size()) {
    return "Size() is " + std::to_string(size) + ", expected " +
           std::to_string(expected.keys.size());
  }
  std::sort(stored.begin(), stored.end());
  if (stored.size() != expected.keys.size()) {
    return "Keys() lists " + std::to_string(stored.size()) +
           " keys, expected " + std::to_string(expected.keys.size());
  }
  const auto [at, want] =
      std::mismatch(stored.begin(), stored.end(), expected.keys.begin());
  if (at != stored.end()) {
    return "Keys() holds " + std::to_string(*at) + " where " +
           std::to_string(*want) + " was expected (sorted position " +
           std::to_string(at - stored.begin()) + ")";
  }
  return "";
}

std::string FirstDifferenceAfterFilling(const Expected& expected,
                                        std::size_t added,
                                        const adj::hash_set::Set& set) {
  if (added != expected.keys.size()) {
    return "InsertAll reported " + std::to_string(added) +
           " new keys, expected " + std::to_string(expected.keys.size());
  }
  return FirstDifferenceInKeys(expected, set);
}

std::string FirstDifferenceInAnswers(std::span<const std::uint8_t> answers,
                                     std::span<const std::uint32_t> queries,
                                     std::span<const std::uint8_t> found) {
  if (found.size() != answers.size() || queries.size() != answers.size()) {
    return std::to_string(found.size()) + " answers, expected " +
           std::to_string(answers.size());
  }
  for (std::size_t i = 0; i < answers.size(); ++i) {
    if (found[i] != answers[i]) {
      return "query " + std::to_string(i) + " (key " +
             std::to_string(queries[i]) + ") answered " +
             std::to_string(found[i]) + ", expected " +
             std::to_string(answers[i]);
    }
  }
  return "";
}

}  // namespace adj::checks::hash_set

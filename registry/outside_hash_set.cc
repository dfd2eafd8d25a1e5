// hash_set's outside check: the keys a set holds after the inserts, in any
// order, and optionally its answers to membership queries, against the
// oracle through checks::hash_set.
#include <string>
#include <vector>

#include "algorithms/hash_set/hash_set.h"
#include "checks/hash_set.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {

namespace {

OutsideVerdict CheckHashSetOutput(const Arrays& inputs, const Arrays& outputs,
                                  const Parameters&) {
  const Array* inserted_array = Find(inputs, "inserted");
  const Array* keys_array = Find(outputs, "keys");
  if (inserted_array == nullptr || keys_array == nullptr) {
    throw CheckInputError(
        "hash_set: the input inserted and the output keys are required");
  }
  // kEmptyKey marks a free slot and cannot be a key.
  const std::vector<std::uint32_t> inserted =
      IndicesOf(*inserted_array, "inserted", hash_set::kEmptyKey);
  const std::vector<std::uint32_t> keys =
      IndicesOf(*keys_array, "keys", std::uint64_t{1} << 32);
  const checks::hash_set::Expected expected =
      checks::hash_set::ExpectedOf(inserted);
  OutsideVerdict verdict;
  verdict.scope = "the " + std::to_string(expected.keys.size()) +
                  " distinct keys of " + std::to_string(inserted.size()) +
                  " inserts, compared as a set";
  verdict.difference =
      checks::hash_set::FirstDifferenceInKeys(expected, keys.size(), keys);
  const Array* queries_array = Find(inputs, "queries");
  const Array* answers_array = Find(outputs, "answers");
  if ((queries_array != nullptr) != (answers_array != nullptr)) {
    throw CheckInputError(
        "hash_set: queries (input) and answers (output) "
        "come together");
  }
  if (queries_array != nullptr && verdict.difference.empty()) {
    const std::vector<std::uint32_t> queries =
        IndicesOf(*queries_array, "queries", std::uint64_t{1} << 32);
    const std::vector<std::uint32_t> answers =
        IndicesOf(*answers_array, "answers", 2);
    if (answers.size() != queries.size()) {
      throw CheckInputError("answers: " + std::to_string(answers.size()) +
                            " entries, expected one per query (" +
                            std::to_string(queries.size()) + ")");
    }
    const std::vector<std::uint8_t> found(answers.begin(), answers.end());
    verdict.difference = checks::hash_set::FirstDifferenceInAnswers(
        checks::hash_set::AnswersOf(expected, queries), queries, found);
    verdict.scope += "; and " + std::to_string(queries.size()) + " queries";
  }
  verdict.statistics = {{"inserted", static_cast<double>(inserted.size())},
                        {"keys", static_cast<double>(keys.size())}};
  return verdict;
}

}  // namespace

OutsideCheck HashSetOutsideCheck() {
  return {"hash_set",
          "inserted (N,): the uint32 keys inserted, in any order, repeats "
          "allowed (0xFFFFFFFF marks a free slot and cannot be a key), and "
          "optionally queries (Q,)",
          "keys (K,): the keys the set holds, each once, in any order, and "
          "with queries answers (Q,) of 1 (present) or 0",
          {"inserted", "queries"},
          {"keys", "answers"},
          {},
          "inserted",
          "keys",
          &CheckHashSetOutput};
}

}  // namespace adj::registry

// compaction's outside check: the values whose flag is 0, in order (a
// nonzero flag removes its value), against the oracle through
// checks::compaction.
#include <string>
#include <vector>

#include "checks/compaction.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {

namespace {

OutsideVerdict CheckCompactionOutput(const Arrays& inputs,
                                     const Arrays& outputs, const Parameters&) {
  const Array* values_array = Find(inputs, "values");
  const Array* flags_array = Find(inputs, "flags");
  const Array* kept_array = Find(outputs, "kept");
  if (values_array == nullptr || flags_array == nullptr ||
      kept_array == nullptr) {
    throw CheckInputError(
        "compaction: the inputs values and flags and the "
        "output kept are required");
  }
  constexpr std::uint64_t kUint32 = std::uint64_t{1} << 32;
  const std::vector<std::uint32_t> values =
      IndicesOf(*values_array, "values", kUint32);
  if (flags_array->shape.size() != 1 || flags_array->size() != values.size()) {
    throw CheckInputError("flags: " + std::to_string(flags_array->size()) +
                          " entries, expected one per value (" +
                          std::to_string(values.size()) + ",)");
  }
  std::vector<std::uint8_t> flags(values.size());
  for (std::size_t k = 0; k < flags.size(); ++k) {
    flags[k] = flags_array->integral ? flags_array->integers[k] != 0
                                     : flags_array->reals[k] != 0;
  }
  const std::vector<std::uint32_t> kept =
      IndicesOf(*kept_array, "kept", kUint32);
  const std::vector<std::uint32_t> expected =
      checks::compaction::Expected(values, flags);
  OutsideVerdict verdict;
  verdict.scope = "the oracle's compaction of all " +
                  std::to_string(values.size()) +
                  " values (a flag other than 0 removes its value)";
  verdict.difference =
      checks::compaction::FirstDifference(expected, kept.size(), kept);
  verdict.statistics = {{"values", static_cast<double>(values.size())},
                        {"kept", static_cast<double>(kept.size())}};
  return verdict;
}

}  // namespace

OutsideCheck CompactionOutsideCheck() {
  return {"compaction",
          "values (N,) of uint32 and flags (N,): a flag other than 0 removes "
          "its value",
          "kept (K,): the values whose flag is 0, in their order",
          {"values", "flags"},
          {"kept"},
          {},
          "values",
          "kept",
          &CheckCompactionOutput};
}

}  // namespace adj::registry

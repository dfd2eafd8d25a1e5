// prefix_sum's outside check: a scan of uint32 values (modulo 2^32),
// inclusive or exclusive, and optionally its total, against the oracle
// through checks::prefix_sum.
#include <optional>
#include <string>
#include <vector>

#include "checks/prefix_sum.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {

namespace {

OutsideVerdict CheckPrefixSumOutput(const Arrays& inputs, const Arrays& outputs,
                                    const Parameters& parameters) {
  const Array* values_array = Find(inputs, "values");
  const Array* scan_array = Find(outputs, "scan");
  if (values_array == nullptr || scan_array == nullptr) {
    throw CheckInputError(
        "prefix_sum: the input values and the output scan are required");
  }
  // 1: out[i] = in[0] + ... + in[i]; 0: exclusive, out[0] = 0.
  const bool inclusive = WholeParameterOf(parameters, "inclusive", 0, 1) == 1;
  constexpr std::uint64_t kUint32 = std::uint64_t{1} << 32;
  const std::vector<std::uint32_t> values =
      IndicesOf(*values_array, "values", kUint32);
  const std::vector<std::uint32_t> scan =
      IndicesOf(*scan_array, "scan", kUint32);
  std::optional<std::uint32_t> total;
  if (const Array* total_array = Find(outputs, "total")) {
    if (total_array->size() != 1) {
      throw CheckInputError("total: " + std::to_string(total_array->size()) +
                            " entries, expected one");
    }
    Array one = *total_array;
    one.shape = {1};
    total = IndicesOf(one, "total", kUint32)[0];
  }
  const checks::prefix_sum::Expected expected = checks::prefix_sum::ExpectedOf(
      inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive,
      values);
  OutsideVerdict verdict;
  verdict.scope =
      "the oracle's " + std::string(inclusive ? "inclusive" : "exclusive") +
      " scan of all " + std::to_string(values.size()) + " values, modulo 2^32" +
      (total ? ", and its total" : ", no total given");
  verdict.difference =
      checks::prefix_sum::FirstDifference(expected, scan, total);
  verdict.statistics = {{"values", static_cast<double>(values.size())},
                        {"total", expected.total}};
  return verdict;
}

}  // namespace

OutsideCheck PrefixSumOutsideCheck() {
  return {"prefix_sum",
          "values (N,) of uint32 and the parameter inclusive (1: out[i] = "
          "in[0] + ... + in[i]; 0: exclusive, out[0] = 0)",
          "scan (N,), modulo 2^32, and optionally total (the sum of all "
          "values, modulo 2^32)",
          {"values"},
          {"scan", "total"},
          {"inclusive"},
          "values",
          "scan",
          &CheckPrefixSumOutput};
}

}  // namespace adj::registry

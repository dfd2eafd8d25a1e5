#include "checks/prefix_sum.h"

#include "reference/prefix_sum.h"

namespace adj::checks::prefix_sum {

Expected ExpectedOf(adj::prefix_sum::Kind kind,
                    const std::vector<std::uint32_t>& in) {
  return {kind == adj::prefix_sum::Kind::kInclusive
              ? reference::InclusiveScan(in)
              : reference::ExclusiveScan(in),
          reference::Total(in)};
}

std::string FirstDifference(const Expected& expected,
                            std::span<const std::uint32_t> out,
                            std::optional<std::uint32_t> total) {
  if (out.size() != expected.scan.size()) {
    return "output has " + std::to_string(out.size()) + " elements, expected " +
           std::to_string(expected.scan.size());
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != expected.scan[i]) {
      return "element " + std::to_string(i) + " is " + std::to_string(out[i]) +
             ", expected " + std::to_string(expected.scan[i]);
    }
  }
  if (total && *total != expected.total) {
    return "total is " + std::to_string(*total) + ", expected " +
           std::to_string(expected.total);
  }
  return "";
}

}  // namespace adj::checks::prefix_sum

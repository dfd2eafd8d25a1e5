#pragma once

// prefix_sum's verifier: a scan and its total against the oracle's.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::checks::prefix_sum {

// The scan of `in` of `kind` and its total (modulo 2^32), by the oracle.
struct Expected {
  std::vector<std::uint32_t> scan;
  std::uint32_t total = 0;
};
Expected ExpectedOf(adj::prefix_sum::Kind kind,
                    const std::vector<std::uint32_t>& in);

// "" when `out` is the expected scan and `total` (where the variant reports
// one: the device-resident scans do not) the expected total, else the first
// difference in words.
std::string FirstDifference(const Expected& expected,
                            std::span<const std::uint32_t> out,
                            std::optional<std::uint32_t> total);

}  // namespace adj::checks::prefix_sum

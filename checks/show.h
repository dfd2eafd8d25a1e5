#pragma once

// How the checks quote a row in their first difference.

#include <cstdint>
#include <span>
#include <string>

namespace adj::checks {

// "[a, b, ...]": the first 12 entries, then the count when there are more.
std::string ShowRow(std::span<const std::uint32_t> row);

}  // namespace adj::checks

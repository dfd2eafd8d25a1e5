#include "checks/show.h"

namespace adj::checks {

std::string ShowRow(std::span<const std::uint32_t> row) {
  constexpr std::size_t kShown = 12;
  std::string text = "[";
  for (std::size_t i = 0; i < row.size() && i < kShown; ++i) {
    text += (i ? ", " : "") + std::to_string(row[i]);
  }
  if (row.size() > kShown) {
    text += ", ... (" + std::to_string(row.size()) + " in all)";
  }
  return text + "]";
}

}  // namespace adj::checks

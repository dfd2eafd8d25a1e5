#include "reference/prefix_sum.h"

namespace adj::reference {
namespace {

constexpr std::uint64_t kModulus = std::uint64_t{1} << 32;

}  // namespace

std::vector<std::uint32_t> InclusiveScan(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out;
  out.reserve(in.size());
  std::uint64_t sum = 0;
  for (const std::uint32_t value : in) {
    sum += value;
    out.push_back(static_cast<std::uint32_t>(sum % kModulus));
  }
  return out;
}

std::vector<std::uint32_t> ExclusiveScan(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> inclusive = InclusiveScan(in);
  std::vector<std::uint32_t> out;
  out.reserve(in.size());
  if (!in.empty()) out.push_back(0);
  for (std::size_t i = 0; i + 1 < inclusive.size(); ++i) {
    out.push_back(inclusive[i]);
  }
  return out;
}

std::uint32_t Total(const std::vector<std::uint32_t>& in) {
  std::uint64_t sum = 0;
  for (const std::uint32_t value : in) sum += value;
  return static_cast<std::uint32_t>(sum % kModulus);
}

}  // namespace adj::reference

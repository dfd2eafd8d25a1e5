#pragma once

#include <cstdint>
#include <vector>

namespace adj::reference {

// Oracles for prefix_sum, written from the definition: a 64-bit running sum
// (it cannot wrap below 2^32 elements) reduced modulo 2^32 per element, and
// the exclusive scan as the inclusive one shifted right by one with a 0 in
// front. Shares nothing with algorithms/prefix_sum.
std::vector<std::uint32_t> InclusiveScan(const std::vector<std::uint32_t>& in);
std::vector<std::uint32_t> ExclusiveScan(const std::vector<std::uint32_t>& in);
// The sum of all of `in`, modulo 2^32.
std::uint32_t Total(const std::vector<std::uint32_t>& in);

}  // namespace adj::reference

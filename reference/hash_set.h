#pragma once

// The oracle for hash_set: the keys a set must hold are the inserted keys
// sorted and deduplicated; membership is a binary search among them.

#include <cstdint>
#include <span>
#include <vector>

namespace adj::reference {

// `inserted` ascending, each key once.
std::vector<std::uint32_t> DistinctKeys(
    std::span<const std::uint32_t> inserted);

// 1 where the query is among `distinct_keys` (ascending, as DistinctKeys
// gives them), else 0: what ContainsAll must answer.
std::vector<std::uint8_t> MembershipAnswers(
    std::span<const std::uint32_t> distinct_keys,
    std::span<const std::uint32_t> queries);

}  // namespace adj::reference

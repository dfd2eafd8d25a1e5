#pragma once

// hash_set's verifier: a set's contents and its lookup answers against the
// keys it must hold (reference/hash_set.h: the inserted keys sorted and
// deduplicated, sharing nothing with algorithms/hash_set).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/hash_set/hash_set.h"

namespace adj::checks::hash_set {

// The keys a set must hold, ascending and distinct.
struct Expected {
  std::vector<std::uint32_t> keys;
};
Expected ExpectedOf(std::span<const std::uint32_t> inserted);

// What ContainsAll must answer for `queries` (1: present, 0: absent).
std::vector<std::uint8_t> AnswersOf(const Expected& expected,
                                    std::span<const std::uint32_t> queries);

// "" when `set` holds exactly the expected keys (Size() and Keys()), else
// the first difference in words.
std::string FirstDifferenceInKeys(const Expected& expected,
                                  const adj::hash_set::Set& set);
// The same for a set given by its size and its stored keys in any order (a
// table resident on the device).
std::string FirstDifferenceInKeys(const Expected& expected, std::size_t size,
                                  std::vector<std::uint32_t> stored);

// The same after InsertAll of the expected keys into an empty set that
// returned `added`: every key must have been new.
std::string FirstDifferenceAfterFilling(const Expected& expected,
                                        std::size_t added,
                                        const adj::hash_set::Set& set);

// "" when `found` holds `answers` (AnswersOf the queries), else the first
// wrong answer in words.
std::string FirstDifferenceInAnswers(std::span<const std::uint8_t> answers,
                                     std::span<const std::uint32_t> queries,
                                     std::span<const std::uint8_t> found);

}  // namespace adj::checks::hash_set

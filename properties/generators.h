#pragma once

// RapidCheck generators shared by the families' property tests.

#include <rapidcheck.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "scenes/arrays.h"

namespace adj::testing {

// uint32 values of three kinds: small counts (as in CSR builds), any value,
// and values near 2^32 - 1, whose sums wrap at once.
inline rc::Gen<std::uint32_t> ScanValue() {
  return rc::gen::oneOf(
      rc::gen::inRange<std::uint32_t>(0, 16),
      rc::gen::arbitrary<std::uint32_t>(),
      rc::gen::map(rc::gen::inRange<std::uint32_t>(0, 16), [](std::uint32_t x) {
        return std::numeric_limits<std::uint32_t>::max() - x;
      }));
}

// Short arrays with every value visible in a counterexample; lengths cover
// every remainder modulo any vector width up to 16 lanes x 4 unrolls.
inline rc::Gen<std::vector<std::uint32_t>> ShortScanInput() {
  return rc::gen::mapcat(
      rc::gen::inRange<std::size_t>(0, 300), [](std::size_t n) {
        return rc::gen::container<std::vector<std::uint32_t>>(n, ScanValue());
      });
}

// Lengths uniform in [0, 1e5] from the first case on (RapidCheck would
// otherwise grow them slowly with its size parameter); they still shrink
// towards 0.
inline rc::Gen<std::size_t> LongLength() {
  return rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, 100001));
}

enum class ValueKind { kCounts, kWords };

// Long arrays (up to ~1e5, past the blocking of the parallel variants), built
// from a generated (length, seed, kind) so that a counterexample stays short:
// it shrinks the length and prints the three numbers.
inline std::vector<std::uint32_t> LongScanInput(std::size_t n,
                                                std::uint64_t seed,
                                                ValueKind kind) {
  return kind == ValueKind::kCounts ? scenes::RandomCounts(n, seed)
                                    : scenes::RandomWords(n, seed);
}

}  // namespace adj::testing

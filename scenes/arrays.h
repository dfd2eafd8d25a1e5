#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace adj::scenes {

// Deterministic integer arrays: the same (n, seed) gives the same values on
// every machine and standard library (raw mt19937_64 output, no
// implementation-defined distributions).

// Per-row counts in [0, max_count], the input of a CSR build's scan (e.g.
// particle valences).
std::vector<std::uint32_t> RandomCounts(std::size_t n, std::uint64_t seed,
                                        std::uint32_t max_count = 15);

// Full-range uint32 values: their sums wrap around 2^32 many times.
std::vector<std::uint32_t> RandomWords(std::size_t n, std::uint64_t seed);

}  // namespace adj::scenes

#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/points.h"

namespace adj::reference {

// The pair predicate of the hash_grid contract, by its definition: in double,
// dx = x_i - x_j (likewise y, z), (dx^2 + dy^2) + dz^2 <= max_dist^2.
bool WithinDistance(const Points& points, std::size_t i, std::size_t j,
                    float max_dist);

// Every j != i within max_dist of i, by a scan over all particles:
// ascending. O(N).
std::vector<std::uint32_t> NeighborRow(const Points& points, float max_dist,
                                       std::size_t i);

// Full neighbour lists by brute force over all pairs, rows ascending.
// O(N^2 / 2).
Csr NeighborLists(const Points& points, float max_dist);

// `full` keeping only j < i in row i: Müller's half list, rows ascending.
Csr HalfLists(const Csr& full);

// Each row sorted and its repeats removed.
Csr Deduplicated(const Csr& csr);

// The unordered pairs {min, max} that a list holds (in either row, any
// number of times), sorted: a variant's pair set whatever its list kind,
// order and duplicates.
std::vector<std::pair<std::uint32_t, std::uint32_t>> PairSet(const Csr& csr);

// True when j is in row i exactly as often as i is in row j.
bool IsSymmetric(const Csr& csr);

// Müller's hash, written independently of algorithms/hash_grid: the exact
// integer products (int64), their low 32 bits read as two's complement,
// XORed, the absolute value, modulo table_size. For |x|, |y|, |z| <=
// 1.3e7, where the int64 products are exact.
std::uint32_t MullerHashOf(std::int64_t x, std::int64_t y, std::int64_t z,
                           std::uint32_t table_size);

// How often Müller's query for particle i returns particle j: the number of
// cells in i's window (floor((c_i -/+ max_dist) / spacing) per axis) whose
// bucket is the bucket of j's cell.
std::uint32_t MullerMultiplicity(const Points& points, float spacing,
                                 float max_dist, std::uint32_t table_size,
                                 std::size_t i, std::size_t j);

// The entries Müller's queryAll repeats: over the true half-list pairs
// (i, j < i) of `half`, the sum of MullerMultiplicity(i, j) - 1.
std::uint64_t MullerRepeats(const Points& points, float spacing, float max_dist,
                            std::uint32_t table_size, const Csr& half);

}  // namespace adj::reference

#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
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

// Every target within max_dist of the point (px, py, pz), by the same
// predicate against each target in turn: ascending. O(N).
std::vector<std::uint32_t> PointRow(const Points& targets, float max_dist,
                                    float px, float py, float pz);

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

// Particles per bucket of Müller's table (buckets with none left out).
std::map<std::uint32_t, std::uint64_t> MullerBucketPopulations(
    const Points& points, double spacing, std::uint32_t table_size);

// How many candidates Müller's query for particle i meets (querySize): the
// populations of the buckets of its window's cells, summed, a bucket once
// per cell that hashes to it.
std::uint64_t MullerQuerySize(
    const Points& points, double spacing, double max_dist,
    std::uint32_t table_size,
    const std::map<std::uint32_t, std::uint64_t>& populations, std::size_t i);

// Müller's queryAll row of particle i by its definition, brute force: the
// candidates are, cell by cell of i's window (floor((c_i -/+ max_dist) /
// spacing) in double; x-major, then y, then z), the particles whose cell
// hashes to that cell's bucket, in descending id order; his queryIds keeps
// the first N (N = particles); the row lists each kept j < i that is not
// farther than max_dist (in double) in that order, then one 0 per
// candidate past the first N, as his Int32Array stores undefined.
// O(window cells x N).
std::vector<std::uint32_t> MullerRow(const Points& points, double spacing,
                                     double max_dist, std::uint32_t table_size,
                                     std::size_t i);

// The entries Müller's queryAll repeats: over the true half-list pairs
// (i, j < i) of `half`, the sum of MullerMultiplicity(i, j) - 1.
std::uint64_t MullerRepeats(const Points& points, float spacing, float max_dist,
                            std::uint32_t table_size, const Csr& half);

}  // namespace adj::reference

#pragma once

// Reading the arrays an outside check is handed (registry/outside_check.h)
// as the suite's types, each refusal a CheckInputError naming the array
// and what is wrong with it; and making them from the suite's own.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"
#include "registry/outside_check.h"

namespace adj::registry {

// The array `name` of `arrays`; null when it is absent.
const Array* Find(const Arrays& arrays, std::string_view name);

// An (N, 3) array of finite reals (or integers) as Points.
Points PointsOf(const Array& array, std::string_view name);

// A one-dimensional array of integers in [0, bound) (or any size when
// `bound` is empty) as uint32.
std::vector<std::uint32_t> IndicesOf(const Array& array, std::string_view name,
                                     std::optional<std::uint64_t> bound);

// An (M, 2) array of integers in [0, bound) as pairs.
std::vector<std::pair<std::uint32_t, std::uint32_t>> PairsOf(
    const Array& array, std::string_view name, std::uint64_t bound);

// An (N, columns) array of finite float32 values (integers allowed), row
// by row; an empty array is no rows.
std::vector<float> FloatRowsOf(const Array& array, std::string_view name,
                               std::size_t columns);

// (T, 4) triplets (p0, p1, p2, w) or (T, 3) (w 0), corners in [0, bound).
std::vector<Triplet> TripletsOf(const Array& array, std::string_view name,
                                std::uint64_t bound);

// A CSR of `rows` rows from its offsets (rows + 1 of them, from 0,
// non-decreasing, ending at the indices' length) and indices in [0, bound).
Csr CsrOf(const Array& offsets, const Array& indices, std::size_t rows,
          std::uint64_t bound, std::string_view what);

// A CSR of `rows` rows from (row, value) entries, rows < `rows`: each row
// its values in the order the entries give them (a counting sort).
Csr CsrOfEntries(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> entries,
    std::size_t rows);

// A parameter, required.
double ParameterOf(const Parameters& parameters, std::string_view name);

// A parameter that must be a whole number in [low, high] (a count, a
// width, a 0/1 switch), required; refused naming it and the range.
std::uint64_t WholeParameterOf(const Parameters& parameters,
                               std::string_view name, std::uint64_t low,
                               std::uint64_t high);

// Arrays the suite makes (the exported cases): integers of `shape`, one
// integer (a 0-d array), and rows of N integers as an (M, N) array.
Array IntegerArray(std::vector<std::size_t> shape,
                   std::vector<std::int64_t> values);
Array ScalarArray(std::int64_t value);
// Reals of `shape` (float32 values kept exactly).
Array RealArray(std::vector<std::size_t> shape, std::vector<double> values);
// A symmetric CSR's pairs, each once as (i, j) with i < j (i <= j when
// `with_self`: a self-loop kept), row by row: an (M, 2) array.
Array PairsArray(const Csr& rows, bool with_self);
template <std::size_t N>
Array RowsArray(std::span<const std::array<std::uint32_t, N>> rows) {
  Array array;
  array.integral = true;
  array.shape = {rows.size(), N};
  array.integers.reserve(rows.size() * N);
  for (const auto& row : rows) {
    array.integers.insert(array.integers.end(), row.begin(), row.end());
  }
  return array;
}

}  // namespace adj::registry

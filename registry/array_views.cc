#include "registry/array_views.h"

#include <cmath>
#include <string>

namespace adj::registry {
namespace {

std::string ShapeText(const Array& array) {
  std::string text = "(";
  for (std::size_t k = 0; k < array.shape.size(); ++k) {
    text += (k == 0 ? "" : ", ") + std::to_string(array.shape[k]);
  }
  return text + (array.shape.size() == 1 ? ",)" : ")");
}

[[noreturn]] void Refuse(std::string_view name, const std::string& why) {
  throw CheckInputError(std::string(name) + ": " + why);
}

std::int64_t IntegerAt(const Array& array, std::size_t k,
                       std::string_view name) {
  if (array.integral) return array.integers[k];
  const double value = array.reals[k];
  if (!(std::floor(value) == value) || std::abs(value) > 9.007199254740992e15) {
    Refuse(name, "entry " + std::to_string(k) + " is " + std::to_string(value) +
                     ", not a whole number");
  }
  return static_cast<std::int64_t>(value);
}

std::uint32_t IndexAt(const Array& array, std::size_t k, std::string_view name,
                      std::uint64_t bound) {
  const std::int64_t value = IntegerAt(array, k, name);
  if (value < 0 || static_cast<std::uint64_t>(value) >= bound) {
    Refuse(name, "entry " + std::to_string(k) + " is " + std::to_string(value) +
                     ", outside [0, " + std::to_string(bound) + ")");
  }
  return static_cast<std::uint32_t>(value);
}

}  // namespace

const Array* Find(const Arrays& arrays, std::string_view name) {
  const auto found = arrays.find(name);
  return found == arrays.end() ? nullptr : &found->second;
}

Points PointsOf(const Array& array, std::string_view name) {
  if (array.size() == 0) return {};  // an empty file has no shape to check
  if (array.shape.size() != 2 || array.shape[1] != 3) {
    Refuse(name, "shape " + ShapeText(array) + ", expected (N, 3)");
  }
  if (array.shape[0] > 0xffffffffu) Refuse(name, "more than 2^32 - 1 points");
  Points points;
  points.Resize(array.shape[0]);
  for (std::size_t i = 0; i < array.shape[0]; ++i) {
    float* coordinates[3] = {&points.x[i], &points.y[i], &points.z[i]};
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const std::size_t k = 3 * i + axis;
      const double value = array.integral
                               ? static_cast<double>(array.integers[k])
                               : array.reals[k];
      const auto rounded = static_cast<float>(value);
      if (!std::isfinite(rounded)) {
        Refuse(name, "point " + std::to_string(i) + " has coordinate " +
                         std::to_string(value) + ", not a finite float32");
      }
      *coordinates[axis] = rounded;
    }
  }
  return points;
}

std::vector<std::uint32_t> IndicesOf(const Array& array, std::string_view name,
                                     std::optional<std::uint64_t> bound) {
  if (array.shape.size() != 1) {
    Refuse(name, "shape " + ShapeText(array) + ", expected (N,)");
  }
  std::vector<std::uint32_t> indices(array.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    indices[k] = IndexAt(array, k, name, bound.value_or(0x100000000ull));
  }
  return indices;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> PairsOf(
    const Array& array, std::string_view name, std::uint64_t bound) {
  if (array.size() == 0) return {};
  if (array.shape.size() != 2 || array.shape[1] != 2) {
    Refuse(name, "shape " + ShapeText(array) + ", expected (M, 2)");
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs(array.shape[0]);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    pairs[k] = {IndexAt(array, 2 * k, name, bound),
                IndexAt(array, 2 * k + 1, name, bound)};
  }
  return pairs;
}

std::vector<float> FloatRowsOf(const Array& array, std::string_view name,
                               std::size_t columns) {
  if (array.size() == 0) return {};
  if (array.shape.size() != 2 || array.shape[1] != columns) {
    Refuse(name, "shape " + ShapeText(array) + ", expected (N, " +
                     std::to_string(columns) + ")");
  }
  std::vector<float> values(array.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double value = array.integral ? static_cast<double>(array.integers[k])
                                        : array.reals[k];
    values[k] = static_cast<float>(value);
    if (!std::isfinite(values[k])) {
      Refuse(name, "row " + std::to_string(k / columns) + " has " +
                       std::to_string(value) + ", not a finite float32");
    }
  }
  return values;
}

std::vector<Triplet> TripletsOf(const Array& array, std::string_view name,
                                std::uint64_t bound) {
  if (array.size() == 0) return {};
  if (array.shape.size() != 2 || (array.shape[1] != 3 && array.shape[1] != 4)) {
    Refuse(name, "shape " + ShapeText(array) + ", expected (T, 4) or (T, 3)");
  }
  const std::size_t columns = array.shape[1];
  std::vector<Triplet> triplets(array.shape[0]);
  for (std::size_t t = 0; t < triplets.size(); ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int64_t corner = IntegerAt(array, columns * t + k, name);
      if (corner < 0 || static_cast<std::uint64_t>(corner) >= bound) {
        Refuse(name, "triplet " + std::to_string(t) + " names particle " +
                         std::to_string(corner) + ", outside [0, " +
                         std::to_string(bound) + ")");
      }
      triplets[t][k] = static_cast<std::uint32_t>(corner);
    }
    triplets[t][3] = columns == 4 ? IndexAt(array, columns * t + 3, name,
                                            std::uint64_t{1} << 32)
                                  : 0;
  }
  return triplets;
}

Csr CsrOf(const Array& offsets, const Array& indices, std::size_t rows,
          std::uint64_t bound, std::string_view what) {
  const std::string offsets_name = std::string(what) + " offsets";
  const std::string indices_name = std::string(what) + " indices";
  Csr csr;
  csr.offsets = IndicesOf(offsets, offsets_name, std::nullopt);
  if (csr.offsets.size() != rows + 1) {
    Refuse(offsets_name, std::to_string(csr.offsets.size()) +
                             " entries, expected " + std::to_string(rows + 1) +
                             " (one per row and one more)");
  }
  csr.indices = IndicesOf(indices, indices_name, bound);
  if (csr.offsets.front() != 0) Refuse(offsets_name, "does not start at 0");
  for (std::size_t row = 0; row < rows; ++row) {
    if (csr.offsets[row + 1] < csr.offsets[row]) {
      Refuse(offsets_name, "decreases at row " + std::to_string(row));
    }
  }
  if (csr.offsets.back() != csr.indices.size()) {
    Refuse(offsets_name, "ends at " + std::to_string(csr.offsets.back()) +
                             ", but there are " +
                             std::to_string(csr.indices.size()) + " indices");
  }
  return csr;
}

Csr CsrOfEntries(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> entries,
    std::size_t rows) {
  Csr csr;
  csr.offsets.assign(rows + 1, 0);
  for (const auto& entry : entries) ++csr.offsets[entry.first + 1];
  for (std::size_t row = 0; row < rows; ++row) {
    csr.offsets[row + 1] += csr.offsets[row];
  }
  csr.indices.resize(entries.size());
  std::vector<std::uint32_t> next(csr.offsets.begin(), csr.offsets.end() - 1);
  for (const auto& [row, value] : entries) csr.indices[next[row]++] = value;
  return csr;
}

double ParameterOf(const Parameters& parameters, std::string_view name) {
  const auto found = parameters.find(name);
  if (found == parameters.end()) {
    throw CheckInputError("the parameter " + std::string(name) +
                          " is required");
  }
  return found->second;
}

std::uint64_t WholeParameterOf(const Parameters& parameters,
                               std::string_view name, std::uint64_t low,
                               std::uint64_t high) {
  const double value = ParameterOf(parameters, name);
  if (!(value >= static_cast<double>(low) &&
        value <= static_cast<double>(high) && std::floor(value) == value)) {
    throw CheckInputError("the parameter " + std::string(name) + " is " +
                          std::to_string(value) + ", not a whole number in [" +
                          std::to_string(low) + ", " + std::to_string(high) +
                          "]");
  }
  return static_cast<std::uint64_t>(value);
}

Array IntegerArray(std::vector<std::size_t> shape,
                   std::vector<std::int64_t> values) {
  Array array;
  array.shape = std::move(shape);
  array.integral = true;
  array.integers = std::move(values);
  return array;
}

Array ScalarArray(std::int64_t value) { return IntegerArray({}, {value}); }

Array RealArray(std::vector<std::size_t> shape, std::vector<double> values) {
  Array array;
  array.shape = std::move(shape);
  array.reals = std::move(values);
  return array;
}

Array PairsArray(const Csr& rows, bool with_self) {
  Array pairs = IntegerArray({0, 2}, {});
  for (std::size_t i = 0; i < rows.rows(); ++i) {
    for (const std::uint32_t j : rows.Row(i)) {
      if (j > i || (with_self && j == i)) {
        pairs.integers.insert(pairs.integers.end(),
                              {static_cast<std::int64_t>(i), j});
      }
    }
  }
  pairs.shape[0] = pairs.integers.size() / 2;
  return pairs;
}

}  // namespace adj::registry

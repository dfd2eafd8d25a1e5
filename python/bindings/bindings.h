#pragma once

// The Python module `adjacent._adjacent` (nanobind): one Bind function per
// family, each adding its submodule; the helpers they share.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"
#include "algorithms/common/variant.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::python {

namespace nb = nanobind;

// A read-only 1-D NumPy array over `values`, which it takes over (no copy):
// the array owns the vector until Python frees it.
template <typename T>
nb::ndarray<nb::numpy, const T, nb::ndim<1>> ToNumpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(
      owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, const T, nb::ndim<1>>(owned->data(),
                                                      {owned->size()}, owner);
}

// An (n, N) NumPy array over `rows`, which it takes over (no copy);
// read-only unless kWritable.
template <bool kWritable = false, typename T, std::size_t N>
auto ToNumpyRows(std::vector<std::array<T, N>>&& rows) {
  static_assert(sizeof(std::array<T, N>) == N * sizeof(T));
  using Value = std::conditional_t<kWritable, T, const T>;
  auto* owned = new std::vector<std::array<T, N>>(std::move(rows));
  nb::capsule owner(owned, [](void* p) noexcept {
    delete static_cast<std::vector<std::array<T, N>>*>(p);
  });
  return nb::ndarray<nb::numpy, Value, nb::shape<-1, N>>(
      reinterpret_cast<Value*>(owned->data()), {owned->size(), N}, owner);
}

// A 1-D array of any dtype NumPy can cast to T, copied into a vector (for
// the suite's vector-based inputs: Csr, State).
template <typename T>
using Vector1d = nb::ndarray<const T, nb::ndim<1>, nb::device::cpu>;
template <typename T>
std::vector<T> ToVector(const Vector1d<T>& array) {
  const auto view = array.view();
  std::vector<T> values(array.shape(0));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = view(i);
  return values;
}

// Points (n, 3), any float dtype NumPy can cast to float32 and any strides,
// as the suite's structure of arrays (the one copy the layout forces).
using PointArray = nb::ndarray<const float, nb::shape<-1, 3>, nb::device::cpu>;
Points ToPoints(const PointArray& array);

// (m, 4) uint32: p0, p1, p2 and the weight index, read in place when
// C-contiguous (the suite's Triplet layout).
using TripletArray = nb::ndarray<const std::uint32_t, nb::shape<-1, 4>,
                                 nb::c_contig, nb::device::cpu>;
inline std::span<const Triplet> ToTriplets(const TripletArray& array) {
  static_assert(sizeof(Triplet) == 4 * sizeof(std::uint32_t));
  return {reinterpret_cast<const Triplet*>(array.data()), array.shape(0)};
}

// adjacent.triplet_schedule.Schedule: a scheduler's output kept whole, so
// that triplet_collide consumes it without a copy and its arrays are views
// into it, with the reference validator's verdict and metrics.
struct ScheduleObject {
  triplet_schedule::Schedule schedule;
  std::string problem;
  nb::dict metrics;
};

// The row of `table` named `name`, or std::invalid_argument listing the
// names (Python's ValueError); adj::Unavailable where it cannot run here.
template <typename Fn>
const adj::Variant<Fn>& PickVariant(std::span<const adj::Variant<Fn>> table,
                                    std::string_view family,
                                    std::string_view name) {
  const adj::Variant<Fn>* variant = adj::FindVariant(table, name);
  if (variant == nullptr) {
    std::string names;
    for (const auto& row : table) {
      names += names.empty() ? "" : ", ";
      names += row.name;
    }
    throw std::invalid_argument(std::string(family) + ": no variant '" +
                                std::string(name) + "' (variants: " + names +
                                ")");
  }
  const Availability availability = adj::CanRun(*variant);
  if (!availability.available) {
    throw adj::Unavailable(std::string(family) + "/" + std::string(name) +
                           " cannot run here: " + availability.reason);
  }
  return *variant;
}

void BindHashGrid(nb::module_& m);
void BindTriangleAdjacency(nb::module_& m);
void BindConnectedComponents(nb::module_& m);
void BindTripletSchedule(nb::module_& m);
void BindTripletCollide(nb::module_& m);
void BindSph(nb::module_& m);
void BindStreams(nb::module_& m);
void BindFracture(nb::module_& m);
void BindVerify(nb::module_& m);

}  // namespace adj::python

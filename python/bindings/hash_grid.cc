// adjacent.hash_grid: every particle's neighbours within a radius, by any
// row of the family's variant table, as CSR arrays.
#include "algorithms/hash_grid/hash_grid.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

struct NeighborLists {
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> offsets;
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> indices;
  std::string list;
  std::string order;
  std::uint64_t candidates;
  int threads;
};

// A length argument as the float the C++ takes: a Python float that is
// not positive and finite once rounded to float (1e-300 rounds to 0) is
// refused under its own name, not as the parameter it would have become.
float PositiveFloat(double value, const char* name) {
  const auto rounded = static_cast<float>(value);
  if (!(value > 0) || !std::isfinite(rounded) || !(rounded > 0)) {
    throw Error(
        std::string("hash_grid: ") + name + " " + std::to_string(value) +
        " is not a positive finite float32 (from " +
        std::to_string(std::numeric_limits<float>::denorm_min()) + " to " +
        std::to_string(std::numeric_limits<float>::max()) + ")");
  }
  return rounded;
}

NeighborLists QueryAll(const PointArray& array, double radius_value,
                       const std::string& variant_name,
                       std::optional<double> spacing_value,
                       std::uint32_t table_size) {
  const hash_grid::Variant& variant =
      PickVariant(hash_grid::Variants(), "hash_grid", variant_name);
  const float radius = PositiveFloat(radius_value, "radius");
  const float spacing =
      spacing_value ? PositiveFloat(*spacing_value, "spacing") : radius;
  const Points points = ToPoints(array);
  hash_grid::Params params;
  params.max_dist = radius;
  params.spacing = spacing;
  params.table_size =
      table_size != 0 ? table_size : hash_grid::DefaultTableSize(points.size());
  hash_grid::Neighbors out;
  RunInterruptible([&] { variant.run(points, params, out); });
  return {ToNumpy(std::move(out.csr.offsets)),
          ToNumpy(std::move(out.csr.indices)),
          std::string(hash_grid::ListKindName(out.list)),
          std::string(hash_grid::RowOrderName(out.order)),
          out.candidates,
          out.threads};
}

// The C++ side of python/benchmarks/call_overhead.py: the points
// converted once, then each run into a fresh output as query_all's are.
std::vector<double> TimeQueryAll(const PointArray& array, float radius,
                                 const std::string& variant_name,
                                 int repetitions) {
  const hash_grid::Variant& variant =
      PickVariant(hash_grid::Variants(), "hash_grid", variant_name);
  const Points points = ToPoints(array);
  hash_grid::Params params;
  params.max_dist = radius;
  params.spacing = radius;
  params.table_size = hash_grid::DefaultTableSize(points.size());
  return SecondsPerCall(repetitions, [&] {
    hash_grid::Neighbors out;
    variant.run(points, params, out);
  });
}

}  // namespace

void BindHashGrid(nb::module_& parent) {
  nb::module_ m = parent.def_submodule(
      "hash_grid", "Fixed-radius neighbour lists (docs/hash_grid.md).");
  nb::class_<NeighborLists>(m, "NeighborLists",
                            "Row i holds indices[offsets[i]:offsets[i+1]].")
      .def_prop_ro(
          "offsets", [](const NeighborLists& r) { return r.offsets; },
          nb::rv_policy::automatic)
      .def_prop_ro(
          "indices", [](const NeighborLists& r) { return r.indices; },
          nb::rv_policy::automatic)
      .def_ro("list", &NeighborLists::list,
              "'full' (j in i's row and i in j's) or 'half' (each pair once)")
      .def_ro("order", &NeighborLists::order, "the order within a row")
      .def_ro("candidates", &NeighborLists::candidates,
              "entries handed to the distance test")
      .def_ro("threads", &NeighborLists::threads);
  m.def("query_all", &QueryAll, nb::arg("points"), nb::arg("radius"),
        nb::arg("variant") = "cell_sorted", nb::arg("spacing") = nb::none(),
        nb::arg("table_size") = 0,
        "Neighbours within `radius` (inclusive) of every point of `points` "
        "(n x 3), by the hash_grid variant `variant`; `spacing` is the cell "
        "edge (default: the radius), `table_size` the buckets of Müller's "
        "hashed row (0: twice the points).");
  m.def("time_query_all", &TimeQueryAll, nb::arg("points"), nb::arg("radius"),
        nb::arg("variant"), nb::arg("repetitions"),
        "Seconds per run of the variant called from C++ on `points` "
        "(converted once; spacing = radius), for measuring what a Python "
        "call adds (python/benchmarks/call_overhead.py).");
}

}  // namespace adj::python

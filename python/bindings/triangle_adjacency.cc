// adjacent.triangle_adjacency: particle -> triangles (CSR) by any row of
// the family's variant table.
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <vector>

#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

struct TriangleAdjacency {
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> offsets;
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> indices;
  std::uint32_t max_adjacent;
  std::string order;
  int threads;
};

// A C-contiguous uint32 (m, 3) array is read in place as the suite's
// triangles (the layouts are the same); other integer arrays are checked
// and copied (ToIntegers).
TriangleAdjacency Build(nb::handle triangles_object, std::size_t particle_count,
                        const std::string& variant_name) {
  const triangle_adjacency::Variant& variant = PickVariant(
      triangle_adjacency::Variants(), "triangle_adjacency", variant_name);
  const IntegerArray<std::uint32_t> array = ToIntegers<std::uint32_t>(
      triangles_object, "triangle_adjacency.build", "triangles", 3);
  const std::span<const Triangle> triangles = array.Rows<3>();
  triangle_adjacency::Adjacency out;
  {
    nb::gil_scoped_release release;
    variant.run(triangles, particle_count, out);
  }
  return {ToNumpy(std::move(out.csr.offsets)),
          ToNumpy(std::move(out.csr.indices)), out.max_adjacent,
          std::string(triangle_adjacency::RowOrderName(out.order)),
          out.threads};
}

// The C++ side of python/benchmarks/call_overhead.py: the triangles
// converted once, then each build into a fresh output as build's are.
std::vector<double> TimeBuild(nb::handle triangles_object,
                              std::size_t particle_count,
                              const std::string& variant_name,
                              int repetitions) {
  const triangle_adjacency::Variant& variant = PickVariant(
      triangle_adjacency::Variants(), "triangle_adjacency", variant_name);
  const IntegerArray<std::uint32_t> array = ToIntegers<std::uint32_t>(
      triangles_object, "triangle_adjacency.time_build", "triangles", 3);
  const std::span<const Triangle> triangles = array.Rows<3>();
  return SecondsPerCall(repetitions, [&] {
    triangle_adjacency::Adjacency out;
    variant.run(triangles, particle_count, out);
  });
}

}  // namespace

void BindTriangleAdjacency(nb::module_& parent) {
  nb::module_ m = parent.def_submodule(
      "triangle_adjacency",
      "Particle -> triangle adjacency (docs/triangle_adjacency.md).");
  nb::class_<TriangleAdjacency>(
      m, "TriangleAdjacency",
      "Particle p's triangles are indices[offsets[p]:offsets[p+1]].")
      .def_prop_ro(
          "offsets", [](const TriangleAdjacency& r) { return r.offsets; },
          nb::rv_policy::automatic)
      .def_prop_ro(
          "indices", [](const TriangleAdjacency& r) { return r.indices; },
          nb::rv_policy::automatic)
      .def_ro("max_adjacent", &TriangleAdjacency::max_adjacent,
              "the longest row (NvCloth's maxAdjacentCount)")
      .def_ro("order", &TriangleAdjacency::order,
              "'descending' (NvCloth's) or 'ascending' triangle ids per row")
      .def_ro("threads", &TriangleAdjacency::threads);
  m.def("build", &Build, nb::arg("triangles"), nb::arg("particle_count"),
        nb::arg("variant") = "nvcloth",
        "The triangles around each of `particle_count` particles, from "
        "`triangles` (m x 3 particle indices), by the variant `variant`.");
  m.def("time_build", &TimeBuild, nb::arg("triangles"),
        nb::arg("particle_count"), nb::arg("variant"), nb::arg("repetitions"),
        "Seconds per build of the variant called from C++ (the triangles "
        "converted once), for measuring what a Python call adds "
        "(python/benchmarks/call_overhead.py).");
}

}  // namespace adj::python

// adjacent.connected_components: a label per vertex of a CSR graph by any
// row of the family's variant table.
#include "algorithms/connected_components/connected_components.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/csr.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

struct Labels {
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> labels;
  std::uint32_t count;
  int threads;
};

// The graph's arrays as the suite's Csr: checked, and copied into its
// vectors (the family's entry takes vectors).
Csr GraphOf(nb::handle offsets, nb::handle indices, std::string_view where) {
  Csr graph;
  graph.offsets =
      ToIntegers<std::uint32_t>(offsets, where, "offsets").TakeVector();
  graph.indices =
      ToIntegers<std::uint32_t>(indices, where, "indices").TakeVector();
  return graph;
}

Labels Label(nb::handle offsets, nb::handle indices,
             const std::string& variant_name) {
  const connected_components::Variant& variant = PickVariant(
      connected_components::Variants(), "connected_components", variant_name);
  const Csr graph = GraphOf(offsets, indices, "connected_components.label");
  connected_components::Components out;
  {
    nb::gil_scoped_release release;
    variant.run(graph, out);
  }
  return {ToNumpy(std::move(out.labels)), out.count, out.threads};
}

// The C++ side of python/benchmarks/call_overhead.py: the graph converted
// once, then each labelling into a fresh output as label's are.
std::vector<double> TimeLabel(nb::handle offsets, nb::handle indices,
                              const std::string& variant_name,
                              int repetitions) {
  const connected_components::Variant& variant = PickVariant(
      connected_components::Variants(), "connected_components", variant_name);
  const Csr graph =
      GraphOf(offsets, indices, "connected_components.time_label");
  return SecondsPerCall(repetitions, [&] {
    connected_components::Components out;
    variant.run(graph, out);
  });
}

}  // namespace

void BindConnectedComponents(nb::module_& parent) {
  nb::module_ m =
      parent.def_submodule("connected_components",
                           "Connected components of an undirected graph "
                           "(docs/connected_components.md).");
  nb::class_<Labels>(m, "Labels",
                     "Two vertices share a label iff they are connected.")
      .def_prop_ro(
          "labels", [](const Labels& r) { return r.labels; },
          nb::rv_policy::automatic)
      .def_ro("count", &Labels::count, "the number of components")
      .def_ro("threads", &Labels::threads);
  m.def("label", &Label, nb::arg("offsets"), nb::arg("indices"),
        nb::arg("variant") = "ecl_cc",
        "Component labels of the graph whose vertex v's neighbours are "
        "indices[offsets[v]:offsets[v+1]] (every edge in both rows), by the "
        "variant `variant`.");
  m.def("time_label", &TimeLabel, nb::arg("offsets"), nb::arg("indices"),
        nb::arg("variant"), nb::arg("repetitions"),
        "Seconds per labelling of the variant called from C++ (the graph "
        "converted once), for measuring what a Python call adds "
        "(python/benchmarks/call_overhead.py).");
}

}  // namespace adj::python

// connected_components' outside check: labels in any numbering, compared
// as a partition with the oracle's (checks::connected_components, whose
// labels are each component's smallest vertex).
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "checks/connected_components.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"
#include "scenes/graphs.h"

namespace adj::registry {
namespace {

// The graph as the suite's symmetric CSR (scenes::UndirectedGraph): every
// edge both ways, whichever way the caller listed it; self-loops and
// repeats, which join nothing, dropped.
Csr GraphOf(const Arrays& inputs, const Parameters& parameters,
            std::size_t& vertices) {
  const Array* edges = Find(inputs, "edges");
  const Array* offsets = Find(inputs, "offsets");
  const Array* indices = Find(inputs, "indices");
  if ((edges != nullptr) == (offsets != nullptr || indices != nullptr)) {
    throw CheckInputError(
        "connected_components: give either edges (with "
        "the parameter vertices) or offsets and indices "
        "as the input");
  }
  std::vector<scenes::Edge> listed;
  if (edges != nullptr) {
    vertices = WholeParameterOf(parameters, "vertices", 0, 0xffffffffu);
    for (const auto& [u, v] : PairsOf(*edges, "edges", vertices)) {
      listed.push_back({u, v});
    }
  } else {
    if (offsets == nullptr || indices == nullptr) {
      throw CheckInputError(
          "connected_components: a CSR input needs both "
          "offsets and indices");
    }
    if (offsets->size() == 0) {
      throw CheckInputError("offsets: empty, expected V + 1 entries");
    }
    vertices = offsets->size() - 1;
    const Csr csr = CsrOf(*offsets, *indices, vertices, vertices, "graph");
    for (std::uint32_t u = 0; u < vertices; ++u) {
      for (const std::uint32_t v : csr.Row(u)) listed.push_back({u, v});
    }
  }
  // `vertices` is the caller's number, not the size of an array it gave:
  // budgeted before the offsets are allocated.
  memory::Require(memory::Bytes(vertices + 1, sizeof(std::uint32_t)),
                  "connected_components: the graph's offsets");
  return scenes::UndirectedGraph(vertices, listed);
}

}  // namespace

namespace {

OutsideVerdict CheckConnectedComponentsOutput(const Arrays& inputs,
                                              const Arrays& outputs,
                                              const Parameters& parameters) {
  std::size_t vertices = 0;
  const Csr graph = GraphOf(inputs, parameters, vertices);
  const Array* labels_array = Find(outputs, "labels");
  if (labels_array == nullptr) {
    throw CheckInputError(
        "connected_components: the output labels (V,) "
        "are required");
  }
  if (labels_array->shape.size() != 1 || labels_array->shape[0] != vertices) {
    throw CheckInputError(
        "labels: " + std::to_string(labels_array->size()) +
        " entries of shape rank " + std::to_string(labels_array->shape.size()) +
        ", expected one per vertex (" + std::to_string(vertices) + ",)");
  }
  // Any numbering, as the suite's: each vertex labelled with the smallest
  // vertex that shares its label.
  std::unordered_map<double, std::uint32_t> smallest;
  connected_components::Components got;
  got.labels.resize(vertices);
  for (std::uint32_t v = 0; v < vertices; ++v) {
    const double label = labels_array->integral
                             ? static_cast<double>(labels_array->integers[v])
                             : labels_array->reals[v];
    if (std::isnan(label)) {
      throw CheckInputError("labels: entry " + std::to_string(v) +
                            " is not a number");
    }
    got.labels[v] = smallest.try_emplace(label, v).first->second;
  }
  got.count = static_cast<std::uint32_t>(smallest.size());
  const checks::connected_components::Expected expected =
      checks::connected_components::ExpectedOf(graph);
  OutsideVerdict verdict;
  verdict.scope = "breadth-first search over all " + std::to_string(vertices) +
                  " vertices, edges read as "
                  "undirected; labels compared as a partition";
  verdict.difference =
      checks::connected_components::FirstDifference(expected, got);
  for (std::uint32_t v = 0; v < vertices && !verdict.difference.empty(); ++v) {
    if (got.labels[v] == expected.labels[v]) continue;
    verdict.difference =
        "vertex " + std::to_string(v) + ": your labels put it with vertex " +
        std::to_string(got.labels[v]) +
        " (the first with its label), the "
        "oracle's component of it starts at vertex " +
        std::to_string(expected.labels[v]) + "; " + verdict.difference;
    break;
  }
  if (verdict.difference.empty() && got.count != expected.count) {
    verdict.difference = std::to_string(got.count) + " components, expected " +
                         std::to_string(expected.count);
  }
  std::vector<std::uint32_t> sizes(vertices, 0);
  for (const std::uint32_t label : got.labels) ++sizes[label];
  verdict.statistics = {
      {"components", got.count},
      {"largest_component",
       sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end())}};
  return verdict;
}

}  // namespace

OutsideCheck ConnectedComponentsOutsideCheck() {
  return {"connected_components",
          "the graph: edges (M, 2) with the parameter vertices, or a CSR "
          "offsets (V + 1,) and indices; read as undirected",
          "labels (V,): any integers, one per vertex, equal within a "
          "component (compared as partitions)",
          {"edges", "offsets", "indices"},
          {"labels"},
          {"vertices"},
          "edges",
          "labels",
          &CheckConnectedComponentsOutput};
}

}  // namespace adj::registry

// connected_components' exported cases: scenes/graphs.h's graphs at fixed
// seeds, and the oracle's labels (each component's smallest vertex).
#include <string>
#include <vector>

#include "checks/connected_components.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/graphs.h"

namespace adj::registry {
namespace {

CorpusCase CaseOf(std::string name, std::string purpose, const Csr& graph) {
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  const std::size_t vertices = graph.rows();
  made.inputs["edges"] = PairsArray(graph, /*with_self=*/true);
  made.inputs["vertices"] = ScalarArray(static_cast<std::int64_t>(vertices));
  const auto expected = checks::connected_components::ExpectedOf(graph);
  made.expected["labels"] = IntegerArray(
      {vertices}, {expected.labels.begin(), expected.labels.end()});
  return made;
}

// The undirected graph of `edges`, self-loops kept (UndirectedGraph drops
// them; an implementation must not trip on one).
Csr WithSelfLoops(std::size_t vertices,
                  const std::vector<scenes::Edge>& edges) {
  Csr graph = scenes::UndirectedGraph(vertices, edges);
  Csr looped;
  looped.offsets = {0};
  for (std::size_t u = 0; u < vertices; ++u) {
    const auto row = graph.Row(u);
    looped.indices.insert(looped.indices.end(), row.begin(), row.end());
    if (u % 3 == 0) looped.indices.push_back(static_cast<std::uint32_t>(u));
    looped.offsets.push_back(static_cast<std::uint32_t>(looped.indices.size()));
  }
  return looped;
}

}  // namespace

std::vector<CorpusCase> ConnectedComponentsCorpus() {
  std::vector<CorpusCase> cases;
  cases.push_back(CaseOf("long_path",
                         "one path of 2,000 vertices in shuffled order: the "
                         "longest chain of label hops, deep recursion",
                         scenes::Relabelled(scenes::Path(2000), 1)));
  std::vector<scenes::Edge> star;
  for (std::uint32_t v = 1; v < 500; ++v) star.push_back({v, 0});
  cases.push_back(CaseOf("star", "500 vertices on one hub: one row of 499",
                         scenes::UndirectedGraph(500, star)));
  cases.push_back(CaseOf("many_small_components",
                         "300 components of 1 to 5 vertices scattered over "
                         "the ids, isolated vertices among them",
                         scenes::TinyComponents(300, 5, 2)));
  cases.push_back(CaseOf("isolated_vertices",
                         "100 vertices and no edge: every vertex alone",
                         scenes::UndirectedGraph(100, {})));
  std::vector<scenes::Edge> pairs;
  for (std::uint32_t v = 0; v + 1 < 60; v += 2) pairs.push_back({v, v + 1});
  cases.push_back(CaseOf("self_loops",
                         "pairs of vertices with self-loops on every third "
                         "vertex",
                         WithSelfLoops(60, pairs)));
  cases.push_back(CaseOf("kronecker",
                         "GAP's Kronecker graph at scale 10: a giant "
                         "component, skewed degrees, many isolated vertices",
                         scenes::Kronecker(10, 8, 3)));
  cases.push_back(
      CaseOf("empty", "no vertices", scenes::UndirectedGraph(0, {})));
  return cases;
}

}  // namespace adj::registry

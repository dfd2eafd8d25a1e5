// Boost.Graph's connected_components (a depth-first search) as a user with
// an edge list calls it: the graph as an undirected adjacency_list (vecS,
// vecS: vertices 0..V-1, as Boost.Graph's documentation builds it), the
// components numbered by Boost, then relabelled to the family's labels
// (each component's smallest vertex). Header-only; serial.
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

#if ADJ_HAVE_PEER_BOOST_GRAPH
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#endif

#include <limits>
#include <utility>
#include <vector>

namespace adj::connected_components {

void BoostDfsLabels(const Csr& graph, Components& out) {
  Check(graph);
  BoostDfsLabelsTrusted(graph, out);
}

void BoostDfsLabelsTrusted(const Csr& graph, Components& out) {
#if ADJ_HAVE_PEER_BOOST_GRAPH
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  const std::size_t n = graph.rows();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t k = graph.offsets[u]; k < graph.offsets[u + 1]; ++k) {
      // The symmetric CSR lists each edge both ways: once is enough.
      if (graph.indices[k] >= u) edges.emplace_back(u, graph.indices[k]);
    }
  }
  const Graph boost_graph(edges.begin(), edges.end(), n);
  std::vector<std::uint32_t> component(n);
  const int count = boost::connected_components(boost_graph, component.data());
  // Boost numbers components in the order its search meets them; the
  // family's label is the component's smallest vertex, the first met in
  // ascending order.
  constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> smallest(static_cast<std::size_t>(count), kUnset);
  out.labels.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    std::uint32_t& label = smallest[component[v]];
    if (label == kUnset) label = v;
    out.labels[v] = label;
  }
  out.count = static_cast<std::uint32_t>(count);
  out.threads = 1;
#else
  (void)out;
  throw Unavailable("boost_dfs: Boost.Graph was not found at build time");
#endif
}

}  // namespace adj::connected_components

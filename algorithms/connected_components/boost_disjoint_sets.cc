// Boost's disjoint_sets (union by rank, path compression: the union-find
// Boost.Graph's incremental_components is built on) as a user with an edge
// list calls it: a set per vertex, one union_set per edge, then each
// vertex's find_set representative relabelled to the family's labels (each
// component's smallest vertex). Header-only; serial.
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

#if ADJ_HAVE_PEER_BOOST_GRAPH
#include <boost/pending/disjoint_sets.hpp>
#endif

#include <limits>
#include <vector>

namespace adj::connected_components {

void BoostDisjointSetsLabels(const Csr& graph, Components& out) {
  Check(graph);
  BoostDisjointSetsLabelsTrusted(graph, out);
}

void BoostDisjointSetsLabelsTrusted(const Csr& graph, Components& out) {
#if ADJ_HAVE_PEER_BOOST_GRAPH
  const std::size_t n = graph.rows();
  std::vector<std::uint32_t> rank(n);
  std::vector<std::uint32_t> parent(n);
  boost::disjoint_sets<std::uint32_t*, std::uint32_t*> sets(rank.data(),
                                                            parent.data());
  for (std::uint32_t v = 0; v < n; ++v) sets.make_set(v);
  for (std::uint32_t u = 0; u < n; ++u) {
    for (std::uint32_t k = graph.offsets[u]; k < graph.offsets[u + 1]; ++k) {
      // The symmetric CSR lists each edge both ways: once is enough.
      if (graph.indices[k] > u) sets.union_set(u, graph.indices[k]);
    }
  }
  // A representative is any member; the family's label is the smallest,
  // the first met in ascending order.
  constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> smallest(n, kUnset);
  out.labels.resize(n);
  out.count = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    std::uint32_t& label = smallest[sets.find_set(v)];
    if (label == kUnset) {
      label = v;
      ++out.count;
    }
    out.labels[v] = label;
  }
  out.threads = 1;
#else
  (void)out;
  throw Unavailable(
      "boost_disjoint_sets: Boost.Graph was not found at build time");
#endif
}

}  // namespace adj::connected_components

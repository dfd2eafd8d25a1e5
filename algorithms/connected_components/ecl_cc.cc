// ECL-CC (Jaiganesh & Burtscher, HPDC 2018; ECL-CC_11), serial: the
// algorithm of its OpenMP code without threads or atomics (the thesis's
// "serial CPU implementation").
//   1. init: parent[v] = the first neighbour of v smaller than v, else v;
//   2. compute: for every v with parent[v] != v (a vertex without smaller
//      neighbour has all its edges handled from their other end), each edge
//      (v, u) with u < v hooks the larger of the two representatives under
//      the smaller; find re-points every node it passes to its grandparent
//      (intermediate pointer jumping);
//   3. flatten: every vertex points at its root.
// Parents only ever decrease and a root is only hooked under a smaller root,
// so each root is its component's smallest id and parent[v] <= v throughout:
// the flattening is one ascending pass (parent[parent[v]] is final when v is
// reached), which also counts the roots.
#include <algorithm>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {
namespace {

inline std::uint32_t Representative(std::uint32_t* parent, std::uint32_t v) {
  std::uint32_t current = parent[v];
  if (current != v) {
    std::uint32_t previous = v;
    std::uint32_t next;
    while (current > (next = parent[current])) {
      parent[previous] = next;
      previous = current;
      current = next;
    }
  }
  return current;
}

}  // namespace

void EclCcLabels(const Csr& graph, Components& out) {
  Check(graph);
  EclCcLabelsTrusted(graph, out);
}

void EclCcLabelsTrusted(const Csr& graph, Components& out) {
  const std::size_t n = graph.rows();
  out.labels.resize(n);
  out.threads = 1;
  std::uint32_t* parent = out.labels.data();
  const std::uint32_t* offsets = graph.offsets.data();
  const std::uint32_t* indices = graph.indices.data();
  for (std::size_t v = 0; v < n; ++v) {
    auto m = static_cast<std::uint32_t>(v);
    for (std::uint32_t k = offsets[v]; m == v && k < offsets[v + 1]; ++k) {
      m = std::min(m, indices[k]);
    }
    parent[v] = m;
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (parent[v] == v) continue;
    std::uint32_t v_rep = Representative(parent, static_cast<std::uint32_t>(v));
    for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
      const std::uint32_t u = indices[k];
      if (u >= v) continue;
      std::uint32_t u_rep = Representative(parent, u);
      // Serial: the roots found are roots, so one hook joins them.
      if (v_rep < u_rep) {
        parent[u_rep] = v_rep;
      } else if (u_rep < v_rep) {
        parent[v_rep] = u_rep;
        v_rep = u_rep;
      }
    }
  }
  std::uint32_t count = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint32_t p = parent[v];
    parent[v] = parent[p];
    count += p == v ? 1 : 0;
  }
  out.count = count;
}

}  // namespace adj::connected_components

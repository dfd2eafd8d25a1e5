// Serial union-find (Tarjan): every edge (u, v) with v < u joins the two
// roots, found with path halving (each visited node re-pointed at its
// grandparent). The larger root is hooked under the smaller, so every
// parent is <= its child and each root is its component's smallest id; one
// ascending pass then flattens (parent[v] < v is final by the time v is
// reached).
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {
namespace {

inline std::uint32_t FindHalving(std::uint32_t* parent, std::uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

void UnionFindLabels(const Csr& graph, Components& out) {
  Check(graph);
  UnionFindLabelsTrusted(graph, out);
}

void UnionFindLabelsTrusted(const Csr& graph, Components& out) {
  const std::size_t n = graph.rows();
  out.labels.resize(n);
  out.threads = 1;
  std::uint32_t* parent = out.labels.data();
  for (std::size_t v = 0; v < n; ++v) parent[v] = static_cast<std::uint32_t>(v);
  const std::uint32_t* offsets = graph.offsets.data();
  const std::uint32_t* indices = graph.indices.data();
  for (std::size_t u = 0; u < n; ++u) {
    for (std::uint32_t k = offsets[u]; k < offsets[u + 1]; ++k) {
      const std::uint32_t v = indices[k];
      if (v >= u) continue;  // each edge once, from its larger end
      const std::uint32_t ru =
          FindHalving(parent, static_cast<std::uint32_t>(u));
      const std::uint32_t rv = FindHalving(parent, v);
      if (ru < rv) {
        parent[rv] = ru;
      } else if (rv < ru) {
        parent[ru] = rv;
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

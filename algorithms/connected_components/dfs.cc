// Depth-first search from each unlabelled vertex, in ascending order: the
// search from s labels s's whole component s, and s is its smallest id
// because every smaller vertex was labelled before. Iterative: an explicit
// stack of vertices, each marked when pushed, so the stack never holds more
// than the vertex count and a 10M-vertex path needs no call stack.
#include <limits>
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {

void DfsLabels(const Csr& graph, Components& out) {
  Check(graph);
  DfsLabelsTrusted(graph, out);
}

void DfsLabelsTrusted(const Csr& graph, Components& out) {
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = graph.rows();
  out.labels.assign(n, kNone);
  out.count = 0;
  out.threads = 1;
  std::uint32_t* labels = out.labels.data();
  const std::uint32_t* offsets = graph.offsets.data();
  const std::uint32_t* indices = graph.indices.data();
  std::vector<std::uint32_t> stack;
  for (std::size_t s = 0; s < n; ++s) {
    if (labels[s] != kNone) continue;
    const auto label = static_cast<std::uint32_t>(s);
    ++out.count;
    labels[s] = label;
    stack.push_back(label);
    while (!stack.empty()) {
      const std::uint32_t u = stack.back();
      stack.pop_back();
      for (std::uint32_t k = offsets[u]; k < offsets[u + 1]; ++k) {
        const std::uint32_t v = indices[k];
        if (labels[v] == kNone) {
          labels[v] = label;
          stack.push_back(v);
        }
      }
    }
  }
}

}  // namespace adj::connected_components

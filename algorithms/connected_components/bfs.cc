// Breadth-first search from each unlabelled vertex, in ascending order (the
// search from s labels s's component s, its smallest id, as in dfs.cc). The
// labels array is the visited set and one vector, reused by every search,
// is the queue: each search appends its component and walks it once.
#include <limits>
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {

void BfsLabels(const Csr& graph, Components& out) {
  Check(graph);
  BfsLabelsTrusted(graph, out);
}

void BfsLabelsTrusted(const Csr& graph, Components& out) {
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = graph.rows();
  out.labels.assign(n, kNone);
  out.count = 0;
  out.threads = 1;
  std::uint32_t* labels = out.labels.data();
  const std::uint32_t* offsets = graph.offsets.data();
  const std::uint32_t* indices = graph.indices.data();
  std::vector<std::uint32_t> queue;
  for (std::size_t s = 0; s < n; ++s) {
    if (labels[s] != kNone) continue;
    const auto label = static_cast<std::uint32_t>(s);
    ++out.count;
    labels[s] = label;
    queue.clear();
    queue.push_back(label);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t u = queue[head];
      for (std::uint32_t k = offsets[u]; k < offsets[u + 1]; ++k) {
        const std::uint32_t v = indices[k];
        if (labels[v] == kNone) {
          labels[v] = label;
          queue.push_back(v);
        }
      }
    }
  }
}

}  // namespace adj::connected_components

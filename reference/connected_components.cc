#include "reference/connected_components.h"

#include <deque>
#include <string>

namespace adj::reference {

std::vector<std::uint32_t> ComponentLabels(const Csr& graph) {
  const std::size_t n = graph.rows();
  std::vector<std::uint32_t> labels(n, 0);
  std::vector<bool> reached(n, false);
  std::deque<std::size_t> queue;
  for (std::size_t start = 0; start < n; ++start) {
    if (reached[start]) continue;
    reached[start] = true;
    queue.push_back(start);
    while (!queue.empty()) {
      const std::size_t u = queue.front();
      queue.pop_front();
      labels[u] = static_cast<std::uint32_t>(start);
      for (const std::uint32_t v : graph.Row(u)) {
        if (!reached[v]) {
          reached[v] = true;
          queue.push_back(v);
        }
      }
    }
  }
  return labels;
}

std::string VerifyLabels(const Csr& graph,
                         std::span<const std::uint32_t> labels,
                         std::uint64_t count) {
  const std::size_t n = graph.rows();
  if (labels.size() != n) {
    return "there are " + std::to_string(labels.size()) + " labels for " +
           std::to_string(n) + " vertices";
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (labels[v] >= n) {
      return "vertex " + std::to_string(v) + " has label " +
             std::to_string(labels[v]) + ", not a vertex id";
    }
    if (labels[v] > v) {
      return "vertex " + std::to_string(v) + " has the larger label " +
             std::to_string(labels[v]);
    }
    if (labels[labels[v]] != labels[v]) {
      return "vertex " + std::to_string(v) + " has label " +
             std::to_string(labels[v]) + ", which is labelled " +
             std::to_string(labels[labels[v]]);
    }
  }
  for (std::size_t u = 0; u < n; ++u) {
    for (const std::uint32_t v : graph.Row(u)) {
      if (labels[u] != labels[v]) {
        return "edge (" + std::to_string(u) + ", " + std::to_string(v) +
               ") joins labels " + std::to_string(labels[u]) + " and " +
               std::to_string(labels[v]);
      }
    }
  }
  // One search per label, from the label's own vertex (GAP's verifier).
  std::vector<bool> reached(n, false);
  std::vector<std::size_t> frontier;
  std::uint64_t labels_seen = 0;
  for (std::size_t source = 0; source < n; ++source) {
    if (labels[source] != source) continue;
    ++labels_seen;
    frontier.assign(1, source);
    reached[source] = true;
    for (std::size_t head = 0; head < frontier.size(); ++head) {
      for (const std::uint32_t v : graph.Row(frontier[head])) {
        if (labels[v] != source) {
          return "the search from " + std::to_string(source) +
                 " reached vertex " + std::to_string(v) + " labelled " +
                 std::to_string(labels[v]);
        }
        if (!reached[v]) {
          reached[v] = true;
          frontier.push_back(v);
        }
      }
    }
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (!reached[v]) {
      return "vertex " + std::to_string(v) + " (label " +
             std::to_string(labels[v]) +
             ") is not connected to its label's vertex";
    }
  }
  if (count != labels_seen) {
    return "count " + std::to_string(count) + " but " +
           std::to_string(labels_seen) + " components";
  }
  return "";
}

std::uint32_t CountRoots(std::span<const std::uint32_t> labels) {
  std::uint32_t roots = 0;
  for (std::size_t v = 0; v < labels.size(); ++v) {
    if (labels[v] == v) ++roots;
  }
  return roots;
}

}  // namespace adj::reference

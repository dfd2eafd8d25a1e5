#include "checks/connected_components.h"

#include <stdexcept>

#include "reference/connected_components.h"

namespace adj::checks::connected_components {

Expected ExpectedOf(const Csr& graph) {
  Expected expected;
  expected.labels = reference::ComponentLabels(graph);
  expected.count = reference::CountRoots(expected.labels);
  const std::string verdict =
      reference::VerifyLabels(graph, expected.labels, expected.count);
  if (!verdict.empty()) {
    throw std::logic_error("the two connected-components oracles disagree: " +
                           verdict);
  }
  return expected;
}

std::string FirstDifference(const Expected& expected,
                            const adj::connected_components::Components& got) {
  if (got.labels.size() != expected.labels.size()) {
    return std::to_string(got.labels.size()) + " labels, expected " +
           std::to_string(expected.labels.size());
  }
  for (std::size_t v = 0; v < got.labels.size(); ++v) {
    if (got.labels[v] != expected.labels[v]) {
      return "vertex " + std::to_string(v) + ": label " +
             std::to_string(got.labels[v]) + ", expected " +
             std::to_string(expected.labels[v]);
    }
  }
  if (got.count != expected.count) {
    return std::to_string(got.count) + " components, expected " +
           std::to_string(expected.count);
  }
  return "";
}

}  // namespace adj::checks::connected_components

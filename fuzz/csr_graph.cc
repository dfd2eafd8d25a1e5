// Fuzz target: connected_components' input check and every CPU variant on
// any CSR graph. Whatever the bytes: Check accepts only well-formed
// symmetric graphs (verified here by counting, apart from Check's
// fingerprint), the variant throws exactly when Check does, and what is
// accepted is labelled as the two oracles label it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/connected_components/connected_components.h"
#include "checks/connected_components.h"
#include "fuzz/fuzz_input.h"
#include "reference/hash_grid.h"

namespace adj::fuzz {
namespace {

namespace cc = connected_components;

// Well formed and symmetric: offsets from 0 to the entry count, never
// decreasing, ids below n, and each (u, v) as often as (v, u) (the
// reference's IsSymmetric, apart from Check's fingerprint).
bool WellFormedSymmetric(const Csr& graph) {
  const std::vector<std::uint32_t>& offsets = graph.offsets;
  if (offsets.empty() || offsets.front() != 0 ||
      offsets.back() != graph.indices.size()) {
    return false;
  }
  const std::size_t n = offsets.size() - 1;
  for (std::size_t u = 0; u < n; ++u) {
    if (offsets[u] > offsets[u + 1]) return false;
  }
  for (const std::uint32_t v : graph.indices) {
    if (v >= n) return false;
  }
  return reference::IsSymmetric(graph);
}

Csr Graph(Input& in) {
  const std::uint32_t n = in.Below(40);
  const std::uint32_t mode = in.Below(3);
  Csr graph;
  if (mode == 0) {  // raw offsets and ids
    graph.offsets.resize(n + 1);
    for (std::uint32_t& offset : graph.offsets) offset = in.Below(64);
    graph.indices.resize(in.Below(64));
    for (std::uint32_t& id : graph.indices) id = in.Below(n + 2);
    return graph;
  }
  // Edges (u, v); mode 2 adds each mirror, mode 1 only sometimes.
  std::vector<std::vector<std::uint32_t>> rows(n);
  while (n > 0 && in.remaining() >= 3) {
    const std::uint32_t u = in.Take<std::uint8_t>() % n;
    const std::uint32_t v = in.Take<std::uint8_t>() % n;
    const bool mirror = mode == 2 || (in.Take<std::uint8_t>() & 1) != 0;
    rows[u].push_back(v);
    if (mirror && u != v) rows[v].push_back(u);
  }
  graph.offsets.assign(1, 0);
  for (const auto& row : rows) {
    graph.indices.insert(graph.indices.end(), row.begin(), row.end());
    graph.offsets.push_back(static_cast<std::uint32_t>(graph.indices.size()));
  }
  return graph;
}

void FuzzGraph(Input& in) {
  const std::span<const cc::Variant> table = cc::Variants();
  const cc::Variant& variant =
      table[in.Below(static_cast<std::uint32_t>(table.size()))];
  if (!CanRun(variant).available) return;
  const Csr graph = Graph(in);
  bool accepted = true;
  try {
    cc::Check(graph);
  } catch (const adj::Error&) {
    accepted = false;
  }
  if (accepted != WellFormedSymmetric(graph)) {
    Broken(accepted ? "Check accepted a malformed or asymmetric graph"
                    : "Check refused a well-formed symmetric graph");
  }
  cc::Components got;
  bool ran = true;
  try {
    variant.run(graph, got);
  } catch (const adj::Error&) {
    ran = false;
  }
  if (ran != accepted) {
    Broken(std::string(variant.name) +
           (ran ? " ran on a graph Check refuses"
                : " refused a graph Check accepts"));
  }
  if (!accepted) return;
  const std::string difference = checks::connected_components::FirstDifference(
      checks::connected_components::ExpectedOf(graph), got);
  if (!difference.empty())
    Broken(std::string(variant.name) + ": " + difference);
}

}  // namespace
}  // namespace adj::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  adj::fuzz::Input in(data, size);
  adj::fuzz::FuzzGraph(in);
  return 0;
}

#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/csr.h"

namespace adj::reference {

// Component labels by the definition, written apart from
// algorithms/connected_components: vertices taken in ascending order, each
// one not yet reached starts a breadth-first search (std::deque, a
// std::vector<bool> of reached vertices) that gives its whole component the
// start's id, which is the component's smallest. The graph must be a
// well-formed symmetric Csr (ids < rows()).
std::vector<std::uint32_t> ComponentLabels(const Csr& graph);

// GAP's verifier (sbeamer/gapbs cc.cc CCVerifier) plus canonicity: `labels`
// is the canonical labelling of `graph` with `count` components exactly
// when
//   - there is one label per vertex, each a vertex id;
//   - every edge's two ends carry the same label;
//   - each label L is carried by L itself, and no vertex v carries a label
//     larger than v;
//   - a search from each such L over the graph reaches only vertices
//     labelled L, and the searches together reach every vertex (a label
//     shared by two components leaves one unreached);
//   - count is the number of labels L with labels[L] == L.
// Returns "" when all hold, else the first failure in words.
std::string VerifyLabels(const Csr& graph,
                         std::span<const std::uint32_t> labels,
                         std::uint64_t count);

// The vertices v with labels[v] == v: a canonical labelling's component
// count.
std::uint32_t CountRoots(std::span<const std::uint32_t> labels);

// (Symmetry: reference::IsSymmetric in reference/hash_grid.h.)

}  // namespace adj::reference

#pragma once

// connected_components' verifier: labels and count against the oracle's
// canonical labelling (each vertex labelled with its component's smallest
// id).

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/connected_components/connected_components.h"

namespace adj::checks::connected_components {

struct Expected {
  std::vector<std::uint32_t> labels;
  std::uint32_t count = 0;
};

// The oracle's labelling (reference::ComponentLabels, a BFS) once GAP's
// verifier (reference::VerifyLabels, written apart) has accepted it, so
// that agreeing with it is agreeing with both; throws std::logic_error if
// the two oracles disagree. `graph` must be a well-formed symmetric Csr.
Expected ExpectedOf(const Csr& graph);

// "" when `got` has the expected labels and count, else the first
// difference in words.
std::string FirstDifference(const Expected& expected,
                            const adj::connected_components::Components& got);

}  // namespace adj::checks::connected_components

#pragma once

// triangle_adjacency's verifier: a variant's rows and max_adjacent against
// the brute-force oracle.

#include <cstddef>
#include <span>
#include <string>

#include "algorithms/common/csr.h"
#include "algorithms/common/mesh.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::checks::triangle_adjacency {

// The oracle's rows, ascending: computed once per mesh and shared by every
// variant checked on it.
Csr ExpectedOf(std::span<const Triangle> triangles, std::size_t particles);

// "" when `got` holds, for every particle, the rows of `ascending` in the
// order it declares (descending: each row reversed) and max_adjacent is the
// longest row, else the first difference in words. `triangle_count` bounds
// the indices.
std::string FirstDifference(const Csr& ascending, std::size_t triangle_count,
                            const adj::triangle_adjacency::Adjacency& got);

}  // namespace adj::checks::triangle_adjacency

#pragma once

// A user's fixed-radius neighbour search on a uniform grid, written outside
// the suite, with three bugs one can plant to see the suite catch them.

#include <cstdint>
#include <vector>

namespace user {

struct Point {
  float x, y, z;
};

enum class Bug {
  kNone,
  // The query's home cell by truncation toward zero, (int)(x / cell),
  // where the grid was binned by floor: wrong for negative coordinates.
  kTruncate,
  // |p - q| < r instead of <= r: pairs at exactly the radius are lost.
  kStrict,
  // Each row loses its last neighbour.
  kDropLast,
};

// Row i: every j != i with |p_i - p_j| <= radius, ascending.
std::vector<std::vector<std::uint32_t>> GridNeighbors(
    const std::vector<Point>& points, float radius, Bug bug);

}  // namespace user

#include "checks/triangle_adjacency.h"

#include <algorithm>
#include <cstdint>

#include "algorithms/common/errors.h"
#include "checks/show.h"
#include "reference/triangle_adjacency.h"

namespace adj::checks::triangle_adjacency {

Csr ExpectedOf(std::span<const Triangle> triangles, std::size_t particles) {
  return reference::TriangleAdjacency(triangles, particles);
}

std::string FirstDifference(const Csr& ascending, std::size_t triangle_count,
                            const adj::triangle_adjacency::Adjacency& got) {
  try {
    ValidateCsr(got.csr, triangle_count);
  } catch (const adj::Error& error) {
    return std::string("malformed output: ") + error.what();
  }
  if (got.csr.rows() != ascending.rows()) {
    return std::to_string(got.csr.rows()) + " rows, expected " +
           std::to_string(ascending.rows());
  }
  const Csr expected = reference::InRowOrder(
      ascending, got.order == adj::triangle_adjacency::RowOrder::kDescending);
  for (std::size_t p = 0; p < expected.rows(); ++p) {
    const auto row = got.csr.Row(p);
    const auto want = expected.Row(p);
    if (!std::equal(row.begin(), row.end(), want.begin(), want.end())) {
      return "particle " + std::to_string(p) + ": expected " + ShowRow(want) +
             ", got " + ShowRow(row) + " (" +
             std::string(adj::triangle_adjacency::RowOrderName(got.order)) +
             " rows)";
    }
  }
  const std::uint32_t longest = reference::LongestRow(expected);
  if (got.max_adjacent != longest) {
    return "max_adjacent " + std::to_string(got.max_adjacent) + ", expected " +
           std::to_string(longest);
  }
  return "";
}

}  // namespace adj::checks::triangle_adjacency

// triangle_adjacency's outside check: each particle's triangles, rows in
// any order, against the brute-force oracle through
// checks::triangle_adjacency.
#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "checks/triangle_adjacency.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {

namespace {

OutsideVerdict CheckTriangleAdjacencyOutput(const Arrays& inputs,
                                            const Arrays& outputs,
                                            const Parameters& parameters) {
  const Array* triangles_array = Find(inputs, "triangles");
  if (triangles_array == nullptr) {
    throw CheckInputError(
        "triangle_adjacency: the input triangles (T, 3) "
        "are required");
  }
  const auto particles = static_cast<std::size_t>(
      WholeParameterOf(parameters, "particles", 0, 0xffffffffu));
  if (triangles_array->size() != 0 &&
      (triangles_array->shape.size() != 2 || triangles_array->shape[1] != 3)) {
    throw CheckInputError("triangles: expected shape (T, 3)");
  }
  Array flat = *triangles_array;
  flat.shape = {flat.size()};
  const std::vector<std::uint32_t> corners =
      IndicesOf(flat, "triangles", particles);
  std::vector<Triangle> triangles(corners.size() / 3);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    triangles[t] = {corners[3 * t], corners[3 * t + 1], corners[3 * t + 2]};
  }
  triangle_adjacency::Check(triangles, particles);
  const Array* offsets = Find(outputs, "offsets");
  const Array* indices = Find(outputs, "indices");
  const Array* memberships = Find(outputs, "memberships");
  if ((memberships != nullptr) == (offsets != nullptr || indices != nullptr)) {
    throw CheckInputError(
        "triangle_adjacency: give either memberships (M, "
        "2) or offsets and indices as the output");
  }
  triangle_adjacency::Adjacency got;
  if (memberships != nullptr) {
    // (particle, triangle) pairs: counted into rows.
    const auto pairs =
        PairsOf(*memberships, "memberships",
                std::max<std::size_t>(particles, triangles.size()));
    for (const auto& [p, t] : pairs) {
      if (p >= particles || t >= triangles.size()) {
        throw CheckInputError("memberships: (" + std::to_string(p) + ", " +
                              std::to_string(t) +
                              ") names no particle or triangle");
      }
    }
    got.csr = CsrOfEntries(pairs, particles);
  } else {
    if (offsets == nullptr || indices == nullptr) {
      throw CheckInputError(
          "triangle_adjacency: a CSR output needs both "
          "offsets and indices");
    }
    got.csr =
        CsrOf(*offsets, *indices, particles, triangles.size(), "adjacency");
  }
  // Rows in any order: compared ascending.
  for (std::size_t p = 0; p < particles; ++p) {
    std::sort(got.csr.indices.begin() + got.csr.offsets[p],
              got.csr.indices.begin() + got.csr.offsets[p + 1]);
    got.max_adjacent = std::max<std::uint32_t>(
        got.max_adjacent, got.csr.offsets[p + 1] - got.csr.offsets[p]);
  }
  got.order = triangle_adjacency::RowOrder::kAscending;
  OutsideVerdict verdict;
  verdict.scope = "brute force over all " + std::to_string(particles) +
                  " particles; rows compared ascending";
  verdict.difference = checks::triangle_adjacency::FirstDifference(
      checks::triangle_adjacency::ExpectedOf(triangles, particles),
      triangles.size(), got);
  verdict.statistics = {{"entries", static_cast<double>(got.csr.entries())},
                        {"max_adjacent", got.max_adjacent}};
  return verdict;
}

}  // namespace

OutsideCheck TriangleAdjacencyOutsideCheck() {
  return {"triangle_adjacency",
          "triangles (T, 3) of particle indices and the parameter particles "
          "(P: particles past the last index have empty rows)",
          "memberships (M, 2) of (particle, triangle), or a CSR offsets (P + "
          "1,) and indices: each particle's triangles, rows in any order",
          {"triangles"},
          {"memberships", "offsets", "indices"},
          {"particles"},
          "triangles",
          "memberships",
          &CheckTriangleAdjacencyOutput};
}

}  // namespace adj::registry

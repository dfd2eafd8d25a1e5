#pragma once

// CompactNSearch's extras beside the self-search (docs/hash_grid.md): a
// second point set, a query at one point, and the cell order handed to the
// caller.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid {

// What an SPH step needs beside the self-search, CompactNSearch's extras:
// a second point set (fluid particles searching a static boundary set), a
// query at one point, and the cell order handed to the caller. The
// targets are sorted by exact cell once (cell_sorted's engine); a query
// finds every target within max_dist of it by this header's pair test (in
// double, distance <= max_dist), never skipping one of the same id (the
// sets are different). Rows are ascending.
class PointSearch {
 public:
  // Throws Error as Check(targets, params, false) does.
  PointSearch(const Points& targets, const Params& params);
  ~PointSearch();
  PointSearch(PointSearch&&) noexcept;
  PointSearch& operator=(PointSearch&&) noexcept;

  // The targets within max_dist of (x, y, z). Throws Error for a point
  // that is not finite or whose window leaves the cell range (as Check).
  std::vector<std::uint32_t> Query(float x, float y, float z) const;
  // One row per query point (Check on `queries` first).
  Csr QueryAll(const Points& queries) const;
  // The targets in cell order: cell_order()[k] is the id at sorted place
  // k (cells in z, y, x order, ids ascending inside a cell), for the
  // caller to reorder every array of the set alike.
  std::span<const std::uint32_t> cell_order() const;

 private:
  struct Grid;
  std::unique_ptr<Grid> grid_;
  Params params_;
};

}  // namespace adj::hash_grid

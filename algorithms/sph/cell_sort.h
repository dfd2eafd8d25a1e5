#pragma once

// Internal to algorithms/sph: particles sorted by their cell of h, for the
// variants that walk neighbour cells as contiguous ranges (sorted_pairs,
// sorted_gather, sorted_simd and their OpenMP twins).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"

namespace adj::sph::detail {

// The cells of h over the particles' bounding box, x fastest: a cell's key
// is its index in that box.
struct CellBox {
  std::int64_t x0 = 0, y0 = 0, z0 = 0;
  std::int64_t nx = 1, ny = 1, nz = 1;
  // Counting-sorted: workspace.cell_start holds every cell's first sorted
  // position (nx ny nz + 1 of them); else the keys are searched.
  bool dense = false;
  std::uint64_t Key(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return static_cast<std::uint64_t>(x + nx * (y + ny * z));
  }
};

// Sorts the particles by cell key, ascending ids inside a cell: a counting
// sort where the box has few cells for the particles, else a comparison
// sort. Fills workspace.entries (sorted position -> id) and
// workspace.cell_keys (sorted position -> key). The per-particle passes
// run on OpenMP threads when `parallel` (the result does not depend on
// it).
CellBox SortByCell(const Points& x, const Params& params, Workspace& workspace,
                   bool parallel = false);

// The 3 x 3 rows of cells around each particle's cell, each row's cells
// x - 1 .. x + 1 one contiguous range of sorted positions: row r of the
// particle at sorted position k is [row_begin[9 c + r], row_end[9 c + r])
// with c = cell_run[k], the index of its cell among the occupied cells (in
// the workspace). Rows out of the box are empty. Searched once per
// occupied cell, in parallel when `parallel` (the result does not depend
// on it). workspace.cell_first holds each occupied cell's first sorted
// position.
void FindRows(const CellBox& box, bool parallel, Workspace& workspace);

// Reorders each occupied cell's particles (after FindRows) by x, then id:
// a row of cells x - 1 .. x + 1 is then sorted by x as a whole, so that
// the candidates of a particle whose x differs by h or more, which cannot
// be within h, are cut off at both ends of the row. The keys and rows do
// not change.
void SortCellsByX(const Points& x, bool parallel, Workspace& workspace);

}  // namespace adj::sph::detail

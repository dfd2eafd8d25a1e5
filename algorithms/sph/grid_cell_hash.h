#pragma once

// Internal to algorithms/sph: the chapter's grid-cell-based hash (section
// 6.4.2): a bucket holds a list of grid cells, a cell its particles, so a
// query visits only the particles of the 27 cells it asks for. Built from
// scratch as the chapter describes: particles sorted by cell, cells by
// bucket (here one counting sort by bucket, then by cell inside a bucket).

#include <cstdint>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"

namespace adj::sph::detail {

// A cell's key: its coordinates + 1 (so that the window's -1 fits), 21
// bits each.
inline std::uint64_t CellKey(std::int32_t x, std::int32_t y, std::int32_t z) {
  return (static_cast<std::uint64_t>(x + 1) << 42) |
         (static_cast<std::uint64_t>(y + 1) << 21) |
         static_cast<std::uint64_t>(z + 1);
}

// Fills workspace.bucket_start (table_size + 1: each bucket's first cell),
// workspace.cell_keys and workspace.cell_start (cells + 1: each cell's
// first slot) and workspace.entries (particle ids by bucket, then cell,
// then ascending id).
void BuildGridCellHash(const Points& x, const Params& params,
                       std::uint32_t table_size, Workspace& workspace);

// Calls visit(j) for every particle of the 27 cells around `cell` (z, then
// y, then x offsets from -1 to 1); returns how many.
template <typename Visit>
std::uint64_t ForEachCellParticle(const Workspace& workspace,
                                  std::uint32_t table_size, Cell cell,
                                  Visit&& visit) {
  std::uint64_t candidates = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const std::int32_t cx = cell.x + dx;
        const std::int32_t cy = cell.y + dy;
        const std::int32_t cz = cell.z + dz;
        const std::uint64_t key = CellKey(cx, cy, cz);
        const std::uint32_t bucket = TeschnerBucket(cx, cy, cz, table_size);
        const std::uint32_t last = workspace.bucket_start[bucket + 1];
        for (std::uint32_t c = workspace.bucket_start[bucket]; c < last; ++c) {
          if (workspace.cell_keys[c] != key) continue;
          const std::uint32_t end = workspace.cell_start[c + 1];
          for (std::uint32_t k = workspace.cell_start[c]; k < end; ++k) {
            visit(workspace.entries[k]);
          }
          candidates += end - workspace.cell_start[c];
          break;
        }
      }
    }
  }
  return candidates;
}

}  // namespace adj::sph::detail

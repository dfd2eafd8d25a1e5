#pragma once

// Internal to algorithms/hash_grid: the engine cell_sorted.cc and
// cell_sorted_openmp.cc share.

#include <cstddef>
#include <cstdint>

#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid::detail {

// Counting sort by exact cell, then one window per cell, on up to `threads`
// threads, at least min_particles_per_thread each (1 thread: no parallel
// region). The output does not depend on the thread count.
constexpr std::size_t kMinParticlesPerThread = 8192;

// One particle (at p, id self) against the sorted slots [begin, end):
// writes to `row` the ids perm[j] within max_dist2 (the pair test of
// hash_grid.h, in double: (dx*dx + dy*dy) + dz*dz <= max_dist2), never self,
// and with half only those < self; returns how many. The slots' order is
// kept (rows are sorted afterwards).
struct Slots {
  const float* x;
  const float* y;
  const float* z;
  const std::uint32_t* perm;
};
using RowFilter = std::size_t(const double p[3], std::uint32_t self, bool half,
                              const Slots& slots, std::uint32_t begin,
                              std::uint32_t end, double max_dist2,
                              std::uint32_t* row);
RowFilter ScalarRowFilter;
// Highway, dynamic dispatch: the same test on as many doubles as a vector
// holds (8 on AVX-512), the same result.
RowFilter SimdRowFilter;

// The sorted slots and cells (cell_sorted.cc), and their build.
struct Grid;
void Build(const Points& points, float spacing, Grid& grid);

// The query on input that passed Check (the callers check it).
void CellSortedQueryAll(const Points& points, const Params& params,
                        ListKind list, int threads,
                        std::size_t min_particles_per_thread, Neighbors& out,
                        RowFilter* filter = &ScalarRowFilter,
                        bool sort_rows = true);

}  // namespace adj::hash_grid::detail

#pragma once

// Internal to algorithms/hash_grid: the engine cell_sorted.cc and
// cell_sorted_openmp.cc share.

#include "algorithms/hash_grid/hash_grid.h"

namespace adj::hash_grid::detail {

// Counting sort by exact cell, then one window per cell, on up to `threads`
// threads, at least min_particles_per_thread each (1 thread: no parallel
// region). The output does not depend on the thread count.
constexpr std::size_t kMinParticlesPerThread = 8192;
void CellSortedQueryAll(const Points& points, const Params& params,
                        ListKind list, int threads,
                        std::size_t min_particles_per_thread, Neighbors& out);

}  // namespace adj::hash_grid::detail

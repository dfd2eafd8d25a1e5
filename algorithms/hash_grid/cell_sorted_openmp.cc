// Ours: cell_sorted on every OpenMP thread (omp_get_max_threads), full
// lists. The build stays serial; the query, the row counts and the row
// copies are split by contiguous cells of about N / threads particles. Below
// 8192 particles per thread it runs on fewer threads (one for small clouds).
#include <omp.h>

#include "algorithms/hash_grid/cell_sorted.h"
#include "algorithms/hash_grid/variants.h"

namespace adj::hash_grid {

void CellSortedOpenMpTuned(const Points& points, const Params& params,
                           Neighbors& out,
                           std::size_t min_particles_per_thread) {
  Check(points, params, /*hashed=*/false);
  detail::CellSortedQueryAll(points, params, ListKind::kFull,
                             omp_get_max_threads(), min_particles_per_thread,
                             out);
}

void CellSortedOpenMp(const Points& points, const Params& params,
                      Neighbors& out) {
  CellSortedOpenMpTuned(points, params, out, detail::kMinParticlesPerThread);
}

void CellSortedOpenMpTrusted(const Points& points, const Params& params,
                             Neighbors& out) {
  detail::CellSortedQueryAll(points, params, ListKind::kFull,
                             omp_get_max_threads(),
                             detail::kMinParticlesPerThread, out);
}

void CellOrderSimdOpenMpTuned(const Points& points, const Params& params,
                              Neighbors& out,
                              std::size_t min_particles_per_thread) {
  Check(points, params, /*hashed=*/false);
  detail::CellSortedQueryAll(points, params, ListKind::kFull,
                             omp_get_max_threads(), min_particles_per_thread,
                             out, &detail::SimdRowFilter, /*sort_rows=*/false);
}

void CellOrderSimdOpenMp(const Points& points, const Params& params,
                         Neighbors& out) {
  CellOrderSimdOpenMpTuned(points, params, out, detail::kMinParticlesPerThread);
}

void CellOrderSimdOpenMpTrusted(const Points& points, const Params& params,
                                Neighbors& out) {
  detail::CellSortedQueryAll(points, params, ListKind::kFull,
                             omp_get_max_threads(),
                             detail::kMinParticlesPerThread, out,
                             &detail::SimdRowFilter, /*sort_rows=*/false);
}

}  // namespace adj::hash_grid

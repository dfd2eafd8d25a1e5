#pragma once

// Internal to algorithms/sph: the chapter's original spatial hash
// (Teschner et al. 2003) as the Algorithm 1 variants use it: each particle
// in the bucket of its cell, a query visiting the buckets of the 27 cells
// around a particle's cell and every particle in them.

#include <cstdint>
#include <vector>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"

namespace adj::sph::detail {

// Fills workspace.bucket_start (table_size + 1 offsets) and
// workspace.entries (particle ids by bucket, ascending inside a bucket) by
// a counting sort of the particles' buckets.
void BuildTeschnerHash(const Points& x, const Params& params,
                       std::uint32_t table_size, Workspace& workspace);

// Calls visit(j) for every particle in the buckets of the 27 cells around
// `cell` (z, then y, then x offsets from -1 to 1), a bucket met a second
// time skipped (the guard the chapter's hash needs); returns how many.
template <typename Visit>
std::uint64_t ForEachCandidate(const Workspace& workspace,
                               std::uint32_t table_size, Cell cell,
                               Visit&& visit) {
  std::uint32_t seen[27];
  int seen_count = 0;
  std::uint64_t candidates = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const std::uint32_t bucket =
            TeschnerBucket(cell.x + dx, cell.y + dy, cell.z + dz, table_size);
        bool repeated = false;
        for (int k = 0; k < seen_count; ++k) repeated |= seen[k] == bucket;
        if (repeated) continue;
        seen[seen_count++] = bucket;
        const std::uint32_t end = workspace.bucket_start[bucket + 1];
        for (std::uint32_t k = workspace.bucket_start[bucket]; k < end; ++k) {
          visit(workspace.entries[k]);
        }
        candidates += end - workspace.bucket_start[bucket];
      }
    }
  }
  return candidates;
}

// Algorithm 1's first pass: builds the hash from state.x and writes the
// density of every particle (self included) to `density`.
void TeschnerDensities(const State& state, const Params& params,
                       Workspace& workspace, std::vector<float>& density,
                       StepReport& report);

}  // namespace adj::sph::detail

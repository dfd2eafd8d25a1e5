#pragma once

// The command line's reports that run every variant of one family on a
// user's input: `adjacent neighbors` (hash_grid) and `adjacent schedule`
// (triplet_schedule). The variant tables and the verify rows are the
// registry's (registry/families.h, registry/verify.h).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/backend.h"
#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "checks/triplet_schedule.h"
#include "tools/arguments.h"

namespace adj::cli {

// `adjacent neighbors CLOUD --radius R`: what each hash_grid variant finds
// on `points`, and its time (one run after a warm-up, wall clock).
struct NeighborsRow {
  std::string variant;
  Backend backend;
  bool hashed = false;  // its Traits: cells keyed by Müller's hash
  std::string problem;  // why it could not run, or what it threw; "" if ran
  std::string list;     // "half" or "full"
  std::uint64_t entries = 0;
  std::uint64_t duplicates = 0;  // Müller's repeated entries
  std::uint64_t pairs = 0;       // distinct unordered pairs
  double candidates = 0;         // per particle, self and repeats included
  std::uint64_t min_neighbors = 0;
  double mean_neighbors = 0;
  std::uint64_t max_neighbors = 0;
  // Müller's faithful row only: queries that met more candidates than
  // particles, whose rows end in 0s (hash_grid/variants.h, MullerHashGrid).
  std::uint64_t queries_past_slots = 0;
  // Müller's faithful row only: pairs just past a cell boundary that his
  // window does not reach (hash_grid.h), left out of its comparison.
  std::uint64_t window_misses = 0;
  // Every particle has as many distinct neighbours as in the first row
  // that ran, not counting muller's rows, which differ where its queries
  // went past their slots (the faithful quirk).
  bool same_as_first = true;
  // It threw a refusal for resources (problem says which): not compared.
  bool refused = false;
  int threads = 1;
  double seconds = 0;
};
std::vector<NeighborsRow> NeighborsOnCloud(const Points& points,
                                           const hash_grid::Params& params);

// `adjacent schedule`: every triplet scheduler on a mesh's virtual
// particles (scenes::VirtualParticles, one per triangle), with the
// reference's metrics.
struct ScheduleRow {
  std::string scheduler;
  bool simd;  // a simd (batches) schedule, else a warp (independent sets) one
  unsigned width;
  checks::triplet_schedule::Metrics metrics;
  std::string problem;  // an error or an invalid schedule; metrics unset
  double seconds = 0;   // one run after a warm-up, wall clock
};
std::vector<ScheduleRow> ScheduleTriplets(std::span<const Triplet> triplets,
                                          std::size_t particle_count,
                                          const ScheduleWidths& widths);

}  // namespace adj::cli

#pragma once

// What the `adjacent` command line knows of each family: its variant table
// (for `adjacent variants`) and, for families that consume meshes, how to
// check every variant against the oracle on a user's mesh (for `adjacent
// verify`). A new family adds its entries in families.cc.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/backend.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "checks/triplet_schedule.h"
#include "tools/arguments.h"

namespace adj::cli {

struct VariantRow {
  std::string family;
  std::string name;
  Backend backend;
  Origin origin;
  std::string twin;
  std::string description;
  Availability availability;
};

std::vector<VariantRow> AllVariants();

struct VerifyRow {
  std::string family;
  std::string variant;
  Backend backend;
  // kRefused: it threw a refusal for resources (the memory budget, or
  // memory the machine could not give), which says nothing of correctness.
  enum class Outcome { kAgrees, kDiffers, kSkipped, kRefused } outcome;
  std::string detail;  // the first difference, or why it was skipped
  double seconds = 0;  // one run after a warm-up, wall clock
};

// Every variant of every mesh-consuming family on `mesh`, against the
// oracles. `oracle_seconds` receives the oracles' total time.
std::vector<VerifyRow> VerifyOnMesh(const Mesh& mesh, double& oracle_seconds);

// `adjacent verify CLOUD --radius R`: every hash_grid variant on `points`
// against the brute-force oracle (checks::hash_grid): every row when there
// are at most kFullOracleParticles particles, else kSampledOracleRows rows
// spread over the ids (the oracle is O(N^2)). `oracle_scope` says which, in
// words. The caller has checked `params` with hash_grid::Check.
constexpr std::size_t kFullOracleParticles = 50000;
constexpr std::size_t kSampledOracleRows = 2000;
std::vector<VerifyRow> VerifyOnCloud(const Points& points,
                                     const hash_grid::Params& params,
                                     double& oracle_seconds,
                                     std::string& oracle_scope);

// `adjacent neighbors CLOUD --radius R`: what each hash_grid variant finds
// on `points`, and its time (one run after a warm-up, wall clock).
struct NeighborsRow {
  std::string variant;
  Backend backend;
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
  // particles, whose rows end in 0s (hash_grid.h, MullerHashGrid).
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

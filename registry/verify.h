#pragma once

// Every variant of a family against its oracle on a user's input: the rows
// of `adjacent verify` and `adjacent.verify`. Each row says whether the
// variant agrees (checks/, the one verifier per family), differs (the first
// difference in words), was skipped (why it cannot run here) or refused the
// work (the memory budget).

#include <chrono>
#include <cstddef>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/backend.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::registry {

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

// The pieces the command line's own reports (`adjacent neighbors`,
// `adjacent schedule`) share with the verify rows.

// What a variant threw is a refusal, no disagreement: for resources (the
// memory budget, or memory the machine could not give), or a manifold-only
// peer's NotManifold (triangle_adjacency.h's one exception).
bool IsRefusal(const std::exception& error);

// Wall-clock seconds of one call of `run`.
template <typename Run>
double SecondsOf(Run&& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// Wall-clock seconds of the second of two calls of `run`: the first warms
// the caches and grows the variant's buffers, as a user's repeated calls
// would have.
template <typename Run>
double WarmedUpSeconds(Run&& run) {
  run();
  return SecondsOf(run);
}

// One scheduler on a mesh's virtual particles: the schedule, its check by
// the reference, and its time (one run after a warm-up).
struct ScheduledRun {
  triplet_schedule::Schedule schedule;
  std::string problem;   // the reference's first complaint, or ""
  std::string error;     // what the scheduler threw, or ""
  bool refused = false;  // what it threw was a refusal for resources
  bool limit = false;    // or a documented limit (16-bit ids, valence)
  double seconds = 0;
};
ScheduledRun RunScheduler(const triplet_schedule::Variant& variant, bool simd,
                          unsigned width, std::span<const Triplet> triplets,
                          std::size_t particles);

// `each(variant, simd, width)` for every simd scheduler at `simd_width`,
// then every warp scheduler at `warp_width`.
template <typename Each>
void ForEachScheduler(unsigned simd_width, unsigned warp_width, Each&& each) {
  for (const auto& variant : triplet_schedule::SimdSchedulers()) {
    each(variant, true, simd_width);
  }
  for (const auto& variant : triplet_schedule::WarpSchedulers()) {
    each(variant, false, warp_width);
  }
}

}  // namespace adj::registry

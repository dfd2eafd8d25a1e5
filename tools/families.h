#pragma once

// What the `adjacent` command line knows of each family: its variant table
// (for `adjacent variants`) and, for families that consume meshes, how to
// check every variant against the oracle on a user's mesh (for `adjacent
// verify`). A new family adds its entries in families.cc.

#include <string>
#include <vector>

#include "algorithms/common/backend.h"
#include "algorithms/common/mesh.h"
#include "reference/triplet_schedule.h"

namespace adj::cli {

struct VariantRow {
  std::string family;
  std::string name;
  Backend backend;
  std::string description;
  Availability availability;
};

std::vector<VariantRow> AllVariants();

struct VerifyRow {
  std::string family;
  std::string variant;
  Backend backend;
  enum class Outcome { kAgrees, kDiffers, kSkipped } outcome;
  std::string detail;  // the first difference, or why it was skipped
  double seconds = 0;  // one run after a warm-up, wall clock
};

// Every variant of every mesh-consuming family on `mesh`, against the
// oracles. `oracle_seconds` receives the oracles' total time.
std::vector<VerifyRow> VerifyOnMesh(const Mesh& mesh, double& oracle_seconds);

// `adjacent schedule`: every triplet scheduler on the mesh's virtual
// particles (one per triangle), with the reference's metrics.
struct ScheduleWidths {
  unsigned simd = 4;   // NvCloth's SwCloth
  unsigned warp = 32;  // NvCloth's CuCloth
};
struct ScheduleRow {
  std::string scheduler;
  bool simd;  // a simd (batches) schedule, else a warp (independent sets) one
  unsigned width;
  reference::ScheduleMetrics metrics;
  std::string problem;  // an error or an invalid schedule; metrics unset
  double seconds = 0;   // one run after a warm-up, wall clock
};
std::vector<ScheduleRow> ScheduleOnMesh(const Mesh& mesh,
                                        const ScheduleWidths& widths);

}  // namespace adj::cli

#include "registry/verify.h"

#include <algorithm>
#include <array>
#include <exception>
#include <new>
#include <sstream>

#include "algorithms/common/errors.h"
#include "algorithms/common/interrupt.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "checks/connected_components.h"
#include "checks/hash_grid.h"
#include "checks/triangle_adjacency.h"
#include "checks/triplet_collide.h"
#include "checks/triplet_schedule.h"
#include "scenes/graphs.h"
#include "scenes/meshes.h"

namespace adj::registry {
namespace {

// A verify row that agrees until shown otherwise, or is skipped (saying
// why) when the variant cannot run here.
template <typename Fn, typename Traits>
VerifyRow RowFor(const std::string& family,
                 const adj::Variant<Fn, Traits>& variant) {
  interrupt::Poll();  // between rows, for variants that do not poll
  VerifyRow row{family,
                std::string(variant.name),
                variant.backend,
                VerifyRow::Outcome::kAgrees,
                "",
                0};
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    row.outcome = VerifyRow::Outcome::kSkipped;
    row.detail = availability.reason;
  }
  return row;
}

// Called in a catch block: a stop from outside (interrupt::Interrupted) is
// no outcome of the variant, so it goes on up.
void RecordThrown(const std::exception& error, VerifyRow& row) {
  if (dynamic_cast<const interrupt::Interrupted*>(&error) != nullptr) throw;
  if (IsRefusal(error)) {
    row.outcome = VerifyRow::Outcome::kRefused;
    row.detail = std::string("refused: ") + error.what();
  } else {
    row.outcome = VerifyRow::Outcome::kDiffers;
    row.detail = std::string("threw: ") + error.what();
  }
}

void VerifyTriangleAdjacency(const Mesh& mesh, double& oracle_seconds,
                             std::vector<VerifyRow>& rows) {
  Csr ascending;
  oracle_seconds += SecondsOf([&] {
    ascending = checks::triangle_adjacency::ExpectedOf(mesh.triangles,
                                                       mesh.particles());
  });
  for (const auto& variant : triangle_adjacency::Variants()) {
    VerifyRow row = RowFor("triangle_adjacency", variant);
    if (row.outcome == VerifyRow::Outcome::kSkipped) {
      rows.push_back(row);
      continue;
    }
    try {
      triangle_adjacency::Adjacency out;
      row.seconds = WarmedUpSeconds(
          [&] { variant.run(mesh.triangles, mesh.particles(), out); });
      row.detail = checks::triangle_adjacency::FirstDifference(
          ascending, mesh.triangles.size(), out);
      if (!row.detail.empty()) row.outcome = VerifyRow::Outcome::kDiffers;
    } catch (const std::exception& error) {
      RecordThrown(error, row);
    }
    rows.push_back(row);
  }
}

void VerifyTripletSchedules(const Mesh& mesh, std::vector<VerifyRow>& rows) {
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  // NvCloth's widths: SwCloth's 4 lanes, CuCloth's 32-thread warps.
  ForEachScheduler(
      4, 32,
      [&](const triplet_schedule::Variant& variant, bool simd, unsigned width) {
        VerifyRow row{"triplet_schedule",
                      std::string(variant.name),
                      variant.backend,
                      VerifyRow::Outcome::kAgrees,
                      "",
                      0};
        const ScheduledRun run =
            RunScheduler(variant, simd, width, triplets, mesh.particles());
        row.seconds = run.seconds;
        if (!run.error.empty()) {
          // A documented limit (16-bit indices, the valence) is not a
          // disagreement.
          const bool limit = run.limit;
          row.outcome = limit         ? VerifyRow::Outcome::kSkipped
                        : run.refused ? VerifyRow::Outcome::kRefused
                                      : VerifyRow::Outcome::kDiffers;
          row.detail = (limit         ? ""
                        : run.refused ? "refused: "
                                      : "threw: ") +
                       run.error;
        } else if (!run.problem.empty()) {
          row.outcome = VerifyRow::Outcome::kDiffers;
          row.detail = "invalid schedule: " + run.problem;
        }
        rows.push_back(row);
      });
}

// Shapes that catch part of any mesh: a sphere at its bounding box's centre
// and a capsule along the box's x axis through it.
triplet_collide::Shapes ShapesAcross(const Mesh& mesh) {
  std::array<float, 3> low = {0, 0, 0};
  std::array<float, 3> high = {0, 0, 0};
  for (std::size_t i = 0; i < mesh.particles(); ++i) {
    const std::array<float, 3> p = {mesh.positions.x[i], mesh.positions.y[i],
                                    mesh.positions.z[i]};
    for (int c = 0; c < 3; ++c) {
      low[c] = i == 0 ? p[c] : std::min(low[c], p[c]);
      high[c] = i == 0 ? p[c] : std::max(high[c], p[c]);
    }
  }
  std::array<float, 3> centre;
  float diagonal = 0;
  for (int c = 0; c < 3; ++c) {
    centre[c] = low[c] / 2 + high[c] / 2;
    diagonal = std::max(diagonal, high[c] - low[c]);
  }
  triplet_collide::Shapes shapes;
  shapes.spheres.push_back({centre, 0.25f * diagonal});
  shapes.capsules.push_back({{low[0], centre[1], centre[2]},
                             {high[0], centre[1], centre[2]},
                             0.1f * diagonal});
  return shapes;
}

// Every collision kernel on the mesh's virtual particles, in the order of
// a schedule it consumes (32-bit schedulers, so that any mesh fits), against
// the reference pass over the same order (checks::triplet_collide: bit for
// bit, or within the interleaving bound for atomic_unscheduled once it
// forks).
void VerifyTripletCollide(const Mesh& mesh, std::vector<VerifyRow>& rows) {
  using triplet_collide::Order;
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  const triplet_collide::Shapes shapes = ShapesAcross(mesh);
  std::vector<triplet_collide::Particle> before =
      triplet_collide::ToParticles(mesh.positions);
  const std::vector<triplet_collide::Weight> weights = {
      triplet_collide::kCentroidWeight};
  for (const auto& variant : triplet_collide::Variants()) {
    VerifyRow row = RowFor("triplet_collide", variant);
    if (row.outcome == VerifyRow::Outcome::kSkipped) {
      rows.push_back(row);
      continue;
    }
    try {
      if (before.size() == mesh.particles()) {
        triplet_collide::AppendDummies(before, shapes);
      }
      const triplet_collide::Consumes consumes =
          triplet_collide::ConsumesOf(variant);
      triplet_schedule::Schedule schedule;
      if (consumes.order == Order::kSimdBatches) {
        const unsigned width = consumes.width != 0
                                   ? consumes.width
                                   : triplet_collide::NativeSimdWidth();
        FindVariant(triplet_schedule::SimdSchedulers(), "stamped_simd")
            ->run(triplets, mesh.particles(), width, schedule);
      } else if (consumes.order == Order::kWarpSets) {
        FindVariant(triplet_schedule::WarpSchedulers(), "bank_matched_warp")
            ->run(triplets, mesh.particles(), 32, schedule);
      } else {
        schedule = triplet_collide::InputOrder(triplets);
      }
      const checks::triplet_collide::Expected expected =
          checks::triplet_collide::ExpectedOf(schedule.triplets, weights,
                                              shapes, before);
      std::vector<triplet_collide::Particle> got = before;
      variant.run(schedule, weights, shapes, got);  // warm-up
      got = before;
      row.seconds =
          SecondsOf([&] { variant.run(schedule, weights, shapes, got); });
      row.detail = checks::triplet_collide::FirstDifference(
          schedule.triplets, weights, shapes, before, expected, got,
          checks::triplet_collide::ExactnessOf(variant, triplets.size()));
      if (!row.detail.empty()) {
        row.outcome = VerifyRow::Outcome::kDiffers;
      } else {
        row.detail = std::to_string(expected.collided) + " of " +
                     std::to_string(triplets.size()) + " points hit a shape";
      }
    } catch (const triplet_collide::TooLarge& limit) {
      row.outcome = VerifyRow::Outcome::kSkipped;
      row.detail = limit.what();
    } catch (const triplet_schedule::ValenceLimit& limit) {
      row.outcome = VerifyRow::Outcome::kSkipped;
      row.detail = limit.what();
    } catch (const std::exception& error) {
      RecordThrown(error, row);
    }
    rows.push_back(row);
  }
}

// Every connected_components variant on the mesh's vertex graph (an edge
// per triangle side), against the separately written BFS labelling.
void VerifyConnectedComponents(const Mesh& mesh, double& oracle_seconds,
                               std::vector<VerifyRow>& rows) {
  Csr graph;
  try {
    graph = scenes::MeshVertexGraph(mesh);
  } catch (const std::exception&) {
    return;  // the triangle families already say what is wrong
  }
  checks::connected_components::Expected expected;
  oracle_seconds += SecondsOf(
      [&] { expected = checks::connected_components::ExpectedOf(graph); });
  for (const auto& variant : connected_components::Variants()) {
    VerifyRow row = RowFor("connected_components", variant);
    if (row.outcome == VerifyRow::Outcome::kSkipped) {
      rows.push_back(row);
      continue;
    }
    try {
      connected_components::Components got;
      row.seconds = WarmedUpSeconds([&] { variant.run(graph, got); });
      row.detail = checks::connected_components::FirstDifference(expected, got);
      if (!row.detail.empty()) {
        row.outcome = VerifyRow::Outcome::kDiffers;
      } else {
        row.detail = "components: " + std::to_string(expected.count);
      }
    } catch (const std::exception& error) {
      RecordThrown(error, row);
    }
    rows.push_back(row);
  }
}

}  // namespace

bool IsRefusal(const std::exception& error) {
  return dynamic_cast<const ResourceError*>(&error) != nullptr ||
         dynamic_cast<const std::bad_alloc*>(&error) != nullptr ||
         dynamic_cast<const triangle_adjacency::NotManifold*>(&error) !=
             nullptr;
}

ScheduledRun RunScheduler(const triplet_schedule::Variant& variant, bool simd,
                          unsigned width, std::span<const Triplet> triplets,
                          std::size_t particles) {
  interrupt::Poll();
  ScheduledRun run;
  try {
    run.seconds = WarmedUpSeconds(
        [&] { variant.run(triplets, particles, width, run.schedule); });
  } catch (const triplet_schedule::ValenceLimit& error) {
    run.error = error.what();
    run.limit = true;
    return run;
  } catch (const interrupt::Interrupted&) {
    throw;
  } catch (const std::exception& error) {
    run.error = error.what();
    run.refused = IsRefusal(error);
    run.limit = run.error.find("16-bit") != std::string::npos;
    return run;
  }
  run.problem = checks::triplet_schedule::FirstProblem(
      triplets, particles,
      simd ? checks::triplet_schedule::Layout::kSimd
           : checks::triplet_schedule::Layout::kWarp,
      width, run.schedule);
  return run;
}

std::vector<VerifyRow> VerifyOnCloud(const Points& points,
                                     const hash_grid::Params& params,
                                     double& oracle_seconds,
                                     std::string& oracle_scope) {
  const std::size_t n = points.size();
  const bool full = n <= kFullOracleParticles;
  checks::hash_grid::Expected expected;
  oracle_seconds = SecondsOf([&] {
    expected = checks::hash_grid::ExpectedOnRows(points, params.max_dist,
                                                 full ? n : kSampledOracleRows);
  });
  oracle_scope = expected.Scope();
  if (!full) {
    oracle_scope +=
        " (more than " + std::to_string(kFullOracleParticles) + " particles)";
  }
  std::vector<VerifyRow> rows;
  for (const auto& variant : hash_grid::Variants()) {
    VerifyRow row = RowFor("hash_grid", variant);
    if (row.outcome == VerifyRow::Outcome::kSkipped) {
      rows.push_back(row);
      continue;
    }
    try {
      hash_grid::Neighbors out;
      row.seconds = WarmedUpSeconds([&] { variant.run(points, params, out); });
      row.detail =
          checks::hash_grid::FirstDifference(points, params, expected, out);
      if (!row.detail.empty()) {
        row.outcome = VerifyRow::Outcome::kDiffers;
      } else {
        const checks::hash_grid::Statistics stats =
            checks::hash_grid::StatisticsOf(out);
        row.detail =
            (full ? std::to_string(stats.pairs) + " pairs"
                  : std::to_string(expected.rows.size()) + " sampled rows") +
            ", " + std::string(hash_grid::ListKindName(out.list)) + " list";
        if (out.order == hash_grid::RowOrder::kMuller) {
          const std::uint64_t past =
              checks::hash_grid::MullerQueriesPastSlots(points, params);
          if (stats.duplicates > 0) {
            row.detail += ", " + std::to_string(stats.duplicates) +
                          " duplicates as the shared buckets predict";
          }
          if (past > 0) {
            row.detail += ", " + std::to_string(past) +
                          " queries past his N slots ending in 0s as his "
                          "page's do";
          }
        }
      }
    } catch (const std::exception& error) {
      RecordThrown(error, row);
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<VerifyRow> VerifyOnMesh(const Mesh& mesh, double& oracle_seconds) {
  oracle_seconds = 0;
  std::vector<VerifyRow> rows;
  VerifyTriangleAdjacency(mesh, oracle_seconds, rows);
  VerifyTripletSchedules(mesh, rows);
  VerifyTripletCollide(mesh, rows);
  VerifyConnectedComponents(mesh, oracle_seconds, rows);
  return rows;
}

}  // namespace adj::registry

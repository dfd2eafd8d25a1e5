#include "tools/families.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <sstream>

#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "reference/triangle_adjacency.h"
#include "reference/triplet_schedule.h"
#include "scenes/meshes.h"

namespace adj::cli {
namespace {

template <typename Fn>
void AppendTable(const std::string& family,
                 std::span<const adj::Variant<Fn>> table,
                 std::vector<VariantRow>& rows) {
  for (const auto& variant : table) {
    rows.push_back({family, std::string(variant.name), variant.backend,
                    std::string(variant.description), CanRun(variant)});
  }
}

template <typename Run>
double SecondsOf(Run&& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

std::string ShowRow(std::span<const std::uint32_t> row) {
  constexpr std::size_t kShown = 12;
  std::ostringstream text;
  text << "[";
  for (std::size_t i = 0; i < row.size() && i < kShown; ++i) {
    text << (i ? ", " : "") << row[i];
  }
  if (row.size() > kShown) text << ", ... (" << row.size() << " in all)";
  text << "]";
  return text.str();
}

// "" when `got` holds the oracle's rows in its declared order, else the
// first difference in words.
std::string FirstDifference(const triangle_adjacency::Adjacency& got,
                            std::size_t triangle_count, const Csr& ascending) {
  try {
    ValidateCsr(got.csr, triangle_count);
  } catch (const adj::Error& error) {
    return std::string("malformed output: ") + error.what();
  }
  if (got.csr.rows() != ascending.rows()) {
    return std::to_string(got.csr.rows()) + " rows, expected " +
           std::to_string(ascending.rows());
  }
  const Csr expected = reference::InRowOrder(
      ascending, got.order == triangle_adjacency::RowOrder::kDescending);
  for (std::size_t p = 0; p < expected.rows(); ++p) {
    const auto row = got.csr.Row(p);
    const auto want = expected.Row(p);
    if (!std::equal(row.begin(), row.end(), want.begin(), want.end())) {
      return "particle " + std::to_string(p) + ": expected " + ShowRow(want) +
             ", got " + ShowRow(row) + " (" +
             std::string(RowOrderName(got.order)) + " rows)";
    }
  }
  const std::uint32_t longest = reference::LongestRow(expected);
  if (got.max_adjacent != longest) {
    return "max_adjacent " + std::to_string(got.max_adjacent) + ", expected " +
           std::to_string(longest);
  }
  return "";
}

void VerifyTriangleAdjacency(const Mesh& mesh, double& oracle_seconds,
                             std::vector<VerifyRow>& rows) {
  Csr ascending;
  oracle_seconds += SecondsOf([&] {
    ascending = reference::TriangleAdjacency(mesh.triangles, mesh.particles());
  });
  for (const auto& variant : triangle_adjacency::Variants()) {
    VerifyRow row{"triangle_adjacency",
                  std::string(variant.name),
                  variant.backend,
                  VerifyRow::Outcome::kAgrees,
                  "",
                  0};
    const Availability availability = CanRun(variant);
    if (!availability.available) {
      row.outcome = VerifyRow::Outcome::kSkipped;
      row.detail = availability.reason;
      rows.push_back(row);
      continue;
    }
    try {
      triangle_adjacency::Adjacency out;
      variant.run(mesh.triangles, mesh.particles(), out);  // warm-up
      row.seconds = SecondsOf(
          [&] { variant.run(mesh.triangles, mesh.particles(), out); });
      row.detail = FirstDifference(out, mesh.triangles.size(), ascending);
      if (!row.detail.empty()) row.outcome = VerifyRow::Outcome::kDiffers;
    } catch (const std::exception& error) {
      row.outcome = VerifyRow::Outcome::kDiffers;
      row.detail = std::string("threw: ") + error.what();
    }
    rows.push_back(row);
  }
}

// One scheduler on the mesh's virtual particles: the schedule, its check by
// the reference, and its time (one run after a warm-up).
struct ScheduledRun {
  triplet_schedule::Schedule schedule;
  std::string problem;  // the reference's first complaint, or ""
  std::string error;    // what the scheduler threw, or ""
  double seconds = 0;
};

ScheduledRun RunScheduler(const triplet_schedule::Variant& variant, bool simd,
                          unsigned width, std::span<const Triplet> triplets,
                          std::size_t particles) {
  ScheduledRun run;
  try {
    variant.run(triplets, particles, width, run.schedule);
    run.seconds = SecondsOf(
        [&] { variant.run(triplets, particles, width, run.schedule); });
  } catch (const std::exception& error) {
    run.error = error.what();
    return run;
  }
  const auto& s = run.schedule;
  run.problem =
      simd ? reference::CheckSimdSchedule(triplets, particles, width,
                                          s.triplets, s.set_sizes, s.padding)
           : reference::CheckWarpSchedule(triplets, particles, s.triplets,
                                          s.set_sizes);
  return run;
}

template <typename Each>
void ForEachScheduler(const ScheduleWidths& widths, Each&& each) {
  for (const auto& variant : triplet_schedule::SimdSchedulers()) {
    each(variant, true, widths.simd);
  }
  for (const auto& variant : triplet_schedule::WarpSchedulers()) {
    each(variant, false, widths.warp);
  }
}

void VerifyTripletSchedules(const Mesh& mesh, std::vector<VerifyRow>& rows) {
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  ForEachScheduler(
      ScheduleWidths{},
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
          // A documented limit (16-bit indices) is not a disagreement.
          const bool limit = run.error.find("16-bit") != std::string::npos;
          row.outcome = limit ? VerifyRow::Outcome::kSkipped
                              : VerifyRow::Outcome::kDiffers;
          row.detail = (limit ? "" : "threw: ") + run.error;
        } else if (!run.problem.empty()) {
          row.outcome = VerifyRow::Outcome::kDiffers;
          row.detail = "invalid schedule: " + run.problem;
        }
        rows.push_back(row);
      });
}

}  // namespace

std::vector<ScheduleRow> ScheduleOnMesh(const Mesh& mesh,
                                        const ScheduleWidths& widths) {
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  std::vector<ScheduleRow> rows;
  ForEachScheduler(widths, [&](const triplet_schedule::Variant& variant,
                               bool simd, unsigned width) {
    ScheduleRow row{std::string(variant.name), simd, width, {}, "", 0};
    const ScheduledRun run =
        RunScheduler(variant, simd, width, triplets, mesh.particles());
    row.seconds = run.seconds;
    if (!run.error.empty()) {
      row.problem = run.error;
    } else if (!run.problem.empty()) {
      row.problem = "INVALID: " + run.problem;
    } else {
      const auto& s = run.schedule;
      row.metrics =
          reference::MeasureSchedule(triplets, mesh.particles(), width,
                                     s.triplets, s.set_sizes, s.padding);
    }
    rows.push_back(std::move(row));
  });
  return rows;
}

std::vector<VariantRow> AllVariants() {
  std::vector<VariantRow> rows;
  AppendTable("prefix_sum", prefix_sum::Variants(), rows);
  AppendTable("triangle_adjacency", triangle_adjacency::Variants(), rows);
  AppendTable("triplet_schedule", triplet_schedule::SimdSchedulers(), rows);
  AppendTable("triplet_schedule", triplet_schedule::WarpSchedulers(), rows);
  return rows;
}

std::vector<VerifyRow> VerifyOnMesh(const Mesh& mesh, double& oracle_seconds) {
  oracle_seconds = 0;
  std::vector<VerifyRow> rows;
  VerifyTriangleAdjacency(mesh, oracle_seconds, rows);
  VerifyTripletSchedules(mesh, rows);
  return rows;
}

}  // namespace adj::cli

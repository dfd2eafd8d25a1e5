#include "tools/families.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "algorithms/common/interrupt.h"
#include "checks/hash_grid.h"
#include "checks/triplet_schedule.h"
#include "registry/verify.h"

namespace adj::cli {

using registry::IsRefusal;
using registry::WarmedUpSeconds;

std::vector<NeighborsRow> NeighborsOnCloud(const Points& points,
                                           const hash_grid::Params& params) {
  std::vector<NeighborsRow> rows;
  std::vector<std::uint64_t> first;
  bool have_first = false;
  std::vector<std::pair<std::size_t, std::vector<std::uint64_t>>> muller_counts;
  hash_grid::Neighbors first_lists;
  for (const auto& variant : hash_grid::Variants()) {
    NeighborsRow row;
    row.variant = std::string(variant.name);
    row.backend = variant.backend;
    row.hashed = variant.traits.hashed;
    const Availability availability = CanRun(variant);
    if (!availability.available) {
      row.problem = "cannot run here: " + availability.reason;
      rows.push_back(row);
      continue;
    }
    try {
      hash_grid::Neighbors out;
      row.seconds = WarmedUpSeconds([&] { variant.run(points, params, out); });
      checks::hash_grid::Statistics stats =
          checks::hash_grid::StatisticsOf(out);
      std::vector<std::uint64_t>& counts = stats.neighbor_counts;
      row.list = std::string(hash_grid::ListKindName(out.list));
      row.entries = stats.entries;
      row.duplicates = stats.duplicates;
      row.pairs = stats.pairs;
      row.threads = out.threads;
      row.candidates = stats.candidates_per_particle;
      row.mean_neighbors = stats.neighbors_per_particle;
      if (!counts.empty()) {
        row.min_neighbors = *std::min_element(counts.begin(), counts.end());
        row.max_neighbors = *std::max_element(counts.begin(), counts.end());
      }
      if (out.order == hash_grid::RowOrder::kMuller) {
        row.queries_past_slots =
            checks::hash_grid::MullerQueriesPastSlots(points, params);
        muller_counts.push_back({rows.size(), std::move(counts)});
      } else if (!have_first) {
        first = std::move(counts);
        first_lists = std::move(out);
        have_first = true;
      } else {
        row.same_as_first = counts == first;
      }
    } catch (const interrupt::Interrupted&) {
      throw;
    } catch (const std::exception& error) {
      row.refused = IsRefusal(error);
      row.problem =
          std::string(row.refused ? "refused: " : "threw: ") + error.what();
      row.same_as_first = row.refused;
    }
    rows.push_back(std::move(row));
  }
  // Müller's rows are compared once the first exact row is known, less the
  // pairs his window does not reach; where his queries went past their
  // slots they differ by design.
  for (auto& [index, counts] : muller_counts) {
    NeighborsRow& row = rows[index];
    if (!have_first || row.queries_past_slots > 0) continue;
    std::vector<std::uint64_t> expected = first;
    for (const auto& [i, j] :
         checks::hash_grid::MullerWindowMisses(points, params, first_lists)) {
      --expected[i];
      --expected[j];
      ++row.window_misses;
    }
    row.same_as_first = counts == expected;
  }
  return rows;
}

std::vector<ScheduleRow> ScheduleTriplets(std::span<const Triplet> triplets,
                                          std::size_t particle_count,
                                          const ScheduleWidths& widths) {
  std::vector<ScheduleRow> rows;
  registry::ForEachScheduler(
      widths.simd, widths.warp,
      [&](const triplet_schedule::Variant& variant, bool simd, unsigned width) {
        ScheduleRow row{std::string(variant.name), simd, width, {}, "", 0};
        const registry::ScheduledRun run = registry::RunScheduler(
            variant, simd, width, triplets, particle_count);
        row.seconds = run.seconds;
        if (!run.error.empty()) {
          row.problem = run.error;
        } else if (!run.problem.empty()) {
          row.problem = "INVALID: " + run.problem;
        } else {
          row.metrics = checks::triplet_schedule::MetricsOf(
              triplets, particle_count, run.schedule);
        }
        rows.push_back(std::move(row));
      });
  return rows;
}

}  // namespace adj::cli

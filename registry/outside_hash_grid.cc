// hash_grid's outside check: a neighbour list computed anywhere, as pairs
// or CSR, full or half, rows in any order, against the brute-force oracle
// through checks::hash_grid.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/hash_grid/hash_grid.h"
#include "checks/hash_grid.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"
#include "registry/verify.h"

namespace adj::registry {
namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;

// Directed entries (i, j): row i lists j.
std::vector<Pair> EntriesOf(const Arrays& outputs, std::size_t particles) {
  const Array* pairs = Find(outputs, "pairs");
  const Array* offsets = Find(outputs, "offsets");
  const Array* indices = Find(outputs, "indices");
  if ((pairs != nullptr) == (offsets != nullptr || indices != nullptr)) {
    throw CheckInputError(
        "hash_grid: give either pairs or offsets and indices as the output");
  }
  if (pairs != nullptr) return PairsOf(*pairs, "pairs", particles);
  if (offsets == nullptr || indices == nullptr) {
    throw CheckInputError(
        "hash_grid: a CSR output needs both offsets and "
        "indices");
  }
  const Csr csr = CsrOf(*offsets, *indices, particles, particles, "neighbor");
  std::vector<Pair> entries;
  entries.reserve(csr.entries());
  for (std::uint32_t i = 0; i < particles; ++i) {
    for (const std::uint32_t j : csr.Row(i)) entries.emplace_back(i, j);
  }
  return entries;
}

// The entries as the suite's lists: a full list when most entries have
// their reverse listed too (a full list missing a few entries is still
// read as one, so that they show as missing), else a half list (each
// unordered pair once, in row max(i, j)); rows ascending, which the
// caller's order does not change.
hash_grid::Neighbors NeighborsOf(std::vector<Pair> entries,
                                 std::size_t particles,
                                 std::optional<bool> declared_full,
                                 std::string& read_as) {
  std::vector<Pair> sorted = entries;
  std::sort(sorted.begin(), sorted.end());
  std::size_t reversed = 0;
  std::size_t others = 0;
  for (const auto& [i, j] : entries) {
    if (i == j) continue;
    ++others;
    if (std::binary_search(sorted.begin(), sorted.end(), Pair{j, i})) {
      ++reversed;
    }
  }
  const bool symmetric =
      declared_full.value_or(others > 0 && 2 * reversed >= others);
  hash_grid::Neighbors got;
  got.list =
      symmetric ? hash_grid::ListKind::kFull : hash_grid::ListKind::kHalf;
  got.order = hash_grid::RowOrder::kAscending;
  if (!symmetric) {
    for (auto& [i, j] : entries) {
      if (i < j) std::swap(i, j);
    }
  }
  std::sort(entries.begin(), entries.end());
  got.csr = CsrOfEntries(entries, particles);
  got.candidates = entries.size();
  read_as = declared_full
                ? std::string(symmetric ? "read as a full list, as declared"
                                        : "read as a half list, as declared")
            : symmetric
                ? "read as a full list (every pair both ways; " +
                      std::to_string(reversed) + " of " +
                      std::to_string(others) + " entries have their reverse)"
                : "read as a half list (each pair once)";
  return got;
}

double Distance(const Points& points, std::uint32_t i, std::uint32_t j) {
  return std::sqrt(std::pow(double{points.x[i]} - points.x[j], 2) +
                   std::pow(double{points.y[i]} - points.y[j], 2) +
                   std::pow(double{points.z[i]} - points.z[j], 2));
}

// The first checked row that differs, as what is missing and what is extra
// with their distances: what the caller needs to find the bug.
std::string Explain(const Points& points, float radius,
                    const checks::hash_grid::Expected& expected,
                    const hash_grid::Neighbors& got) {
  const bool full = got.list == hash_grid::ListKind::kFull;
  for (std::size_t k = 0; k < expected.rows.size(); ++k) {
    const auto i = static_cast<std::uint32_t>(expected.rows[k]);
    std::vector<std::uint32_t> want;
    for (const std::uint32_t j : expected.full_rows.Row(k)) {
      if (full || j < i) want.push_back(j);
    }
    const auto row = got.csr.Row(i);
    std::vector<std::uint32_t> have(row.begin(), row.end());
    std::vector<std::uint32_t> missing;
    std::vector<std::uint32_t> extra;
    std::set_difference(want.begin(), want.end(), have.begin(), have.end(),
                        std::back_inserter(missing));
    std::set_difference(have.begin(), have.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    if (missing.empty() && extra.empty()) continue;
    char text[160];
    std::string said = "particle " + std::to_string(i) + ":";
    for (const std::uint32_t j : missing) {
      std::snprintf(text, sizeof text, " missing %u (distance %.9g <= %.9g)", j,
                    Distance(points, i, j), double{radius});
      said += text;
      break;
    }
    for (const std::uint32_t j : extra) {
      std::snprintf(text, sizeof text, " extra %u (distance %.9g%s)", j,
                    Distance(points, i, j), j == i ? ": itself" : "");
      said += text;
      break;
    }
    return said;
  }
  return "";
}

}  // namespace

namespace {

OutsideVerdict CheckHashGridOutput(const Arrays& inputs, const Arrays& outputs,
                                   const Parameters& parameters) {
  const Array* points_array = Find(inputs, "points");
  if (points_array == nullptr) {
    throw CheckInputError("hash_grid: the input points (N, 3) are required");
  }
  const Points points = PointsOf(*points_array, "points");
  hash_grid::Params params;
  params.max_dist = static_cast<float>(ParameterOf(parameters, "radius"));
  params.spacing = params.max_dist;
  params.table_size = hash_grid::DefaultTableSize(points.size());
  hash_grid::Check(points, params, false);

  // full: 1 a full list, 0 a half list; absent: inferred from the
  // entries, which cannot tell a full list missing one direction of its
  // only pair from a half list.
  std::optional<bool> declared_full;
  if (parameters.contains("full")) {
    declared_full = WholeParameterOf(parameters, "full", 0, 1) == 1;
  }
  std::string read_as;
  const hash_grid::Neighbors got = NeighborsOf(
      EntriesOf(outputs, points.size()), points.size(), declared_full, read_as);
  const checks::hash_grid::Expected expected =
      points.size() <= kFullOracleParticles
          ? checks::hash_grid::ExpectedOf(points, params.max_dist)
          : checks::hash_grid::ExpectedOnRows(points, params.max_dist,
                                              kSampledOracleRows);
  OutsideVerdict verdict;
  verdict.scope = expected.Scope() + "; the output " + read_as;
  verdict.difference =
      checks::hash_grid::FirstDifference(points, params, expected, got);
  if (!verdict.difference.empty()) {
    const std::string explained =
        Explain(points, params.max_dist, expected, got);
    if (!explained.empty())
      verdict.difference = explained + "; " + verdict.difference;
  }
  // Counted as rows that may repeat entries (as Müller's do), so that the
  // statistics say how many repeats the output has; the check above holds
  // it to none.
  hash_grid::Neighbors counted = got;
  counted.order = hash_grid::RowOrder::kMuller;
  const checks::hash_grid::Statistics statistics =
      checks::hash_grid::StatisticsOf(counted);
  verdict.statistics = {
      {"entries", static_cast<double>(statistics.entries)},
      {"duplicates", static_cast<double>(statistics.duplicates)},
      {"pairs", static_cast<double>(statistics.pairs)},
      {"neighbors_per_particle", statistics.neighbors_per_particle}};
  return verdict;
}

}  // namespace

OutsideCheck HashGridOutsideCheck() {
  return {"hash_grid",
          "points (N, 3), the parameter radius (pairs within it, inclusive) "
          "and optionally full (1: the output is a full list, 0: a half "
          "list; absent: inferred)",
          "pairs (M, 2), or a CSR offsets (N + 1,) and indices: a full list "
          "(each pair both ways) or a half list (each pair once, either way), "
          "rows in any order",
          {"points"},
          {"pairs", "offsets", "indices"},
          {"radius", "full"},
          "points",
          "pairs",
          &CheckHashGridOutput};
}

}  // namespace adj::registry

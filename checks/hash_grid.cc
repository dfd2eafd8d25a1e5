#include "checks/hash_grid.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "algorithms/common/errors.h"
#include "algorithms/common/interrupt.h"
#include "checks/show.h"
#include "reference/hash_grid.h"

namespace adj::checks::hash_grid {
namespace {

using adj::hash_grid::ListKind;
using adj::hash_grid::Neighbors;
using adj::hash_grid::Params;
using adj::hash_grid::RowOrder;
using Row = std::vector<std::uint32_t>;

Expected FromRows(std::size_t particles, std::vector<std::size_t> rows,
                  const std::vector<Row>& full_rows, bool every_row) {
  Expected expected;
  expected.particles = particles;
  expected.rows = std::move(rows);
  expected.every_row = every_row;
  for (const Row& row : full_rows) {
    expected.full_rows.indices.insert(expected.full_rows.indices.end(),
                                      row.begin(), row.end());
    expected.full_rows.offsets.push_back(
        static_cast<std::uint32_t>(expected.full_rows.indices.size()));
  }
  return expected;
}

std::string RowDifference(std::size_t i, const Row& want, const Row& got,
                          const Neighbors& out, const char* how) {
  return "particle " + std::to_string(i) + ": expected " + ShowRow(want) +
         ", got " + ShowRow(got) + " (" +
         std::string(adj::hash_grid::ListKindName(out.list)) + " list, " +
         std::string(adj::hash_grid::RowOrderName(out.order)) + " rows" + how +
         ")";
}

}  // namespace

std::string Expected::Scope() const {
  if (every_row) {
    return "brute force over all " + std::to_string(particles) + " rows";
  }
  return "brute force on " + std::to_string(rows.size()) +
         " rows spread over the ids";
}

Expected ExpectedOf(const Points& points, float max_dist) {
  Expected expected;
  expected.particles = points.size();
  expected.every_row = true;
  expected.full_rows = reference::NeighborLists(points, max_dist);
  expected.rows.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) expected.rows[i] = i;
  return expected;
}

Expected ExpectedOnRows(const Points& points, float max_dist,
                        std::size_t count) {
  const std::size_t n = points.size();
  if (count >= n) return ExpectedOf(points, max_dist);
  std::vector<std::size_t> rows;
  std::vector<Row> full_rows;
  for (std::size_t k = 0; k < count; ++k) {
    interrupt::Poll();  // each row scans every particle
    const std::size_t i = k * n / count;
    rows.push_back(i);
    full_rows.push_back(reference::NeighborRow(points, max_dist, i));
  }
  return FromRows(n, std::move(rows), full_rows, false);
}

namespace {

// Whether Müller's query for i meets j at all: j's cell lies in i's window
// (with max_dist, his), or failing that some cell of it shares j's bucket.
bool MullerReaches(const Points& points, const Params& params, std::size_t i,
                   std::size_t j) {
  const double d = params.max_dist;
  const double s = params.spacing;
  const float ci[3] = {points.x[i], points.y[i], points.z[i]};
  const float cj[3] = {points.x[j], points.y[j], points.z[j]};
  bool inside = true;
  for (int a = 0; a < 3; ++a) {
    const double cell = std::floor(double{cj[a]} / s);
    inside = inside && std::floor((double{ci[a]} - d) / s) <= cell &&
             cell <= std::floor((double{ci[a]} + d) / s);
  }
  return inside ||
         reference::MullerMultiplicity(points, params.spacing, params.max_dist,
                                       params.table_size, i, j) > 0;
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> MullerWindowMisses(
    const Points& points, const Params& params, const Neighbors& exact) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> misses;
  for (std::size_t i = 0; i < exact.csr.rows(); ++i) {
    for (const std::uint32_t j : exact.csr.Row(i)) {
      if (j < i && !MullerReaches(points, params, i, j)) {
        misses.emplace_back(static_cast<std::uint32_t>(i), j);
      }
    }
  }
  return misses;
}

namespace {

// What is wrong with the lists' shape before any row is read: a valid Csr
// of one row per particle, candidates counted, an order its list kind has.
std::string ShapeDifference(std::size_t n, const Expected& expected,
                            const Neighbors& got) {
  if (expected.particles != n) return "the oracle's rows are of another cloud";
  try {
    ValidateCsr(got.csr, n);
  } catch (const adj::Error& error) {
    return std::string("malformed lists: ") + error.what();
  }
  if (got.csr.rows() != n) {
    return std::to_string(got.csr.rows()) + " rows, expected " +
           std::to_string(n);
  }
  if (got.candidates < got.csr.entries()) return "fewer candidates than hits";
  if (got.order == RowOrder::kCell && got.list != ListKind::kFull) {
    return "cell order on a half list";
  }
  if (got.order == RowOrder::kMuller && got.list != ListKind::kHalf) {
    return "Müller's order on a full list";
  }
  return "";
}

}  // namespace

std::string FirstDifference(const Points& points, const Params& params,
                            const Expected& expected, const Neighbors& got,
                            bool muller_multiplicity) {
  const std::size_t n = points.size();
  if (std::string shape = ShapeDifference(n, expected, got); !shape.empty()) {
    return shape;
  }
  const auto cell_key = [&](std::uint32_t j) {
    const auto cell = [&](float c) {
      return std::floor(static_cast<double>(c) /
                        static_cast<double>(params.spacing));
    };
    return std::make_tuple(cell(points.z[j]), cell(points.y[j]),
                           cell(points.x[j]), j);
  };
  std::optional<std::map<std::uint32_t, std::uint64_t>> populations;
  for (std::size_t k = 0; k < expected.rows.size(); ++k) {
    const std::size_t i = expected.rows[k];
    Row want(expected.full_rows.Row(k).begin(),
             expected.full_rows.Row(k).end());
    if (got.list == ListKind::kHalf) {
      std::erase_if(want, [i](std::uint32_t j) { return j >= i; });
    }
    const auto row = got.csr.Row(i);
    Row sorted(row.begin(), row.end());
    switch (got.order) {
      case RowOrder::kAscending:
        if (sorted != want) return RowDifference(i, want, sorted, got, "");
        break;
      case RowOrder::kCell:
        std::sort(sorted.begin(), sorted.end());
        if (sorted != want) {
          return RowDifference(i, want, sorted, got, ", sorted here");
        }
        for (std::size_t e = 1; e < row.size(); ++e) {
          if (!(cell_key(row[e - 1]) < cell_key(row[e]))) {
            return "particle " + std::to_string(i) +
                   ": row not in cell order at entry " + std::to_string(e);
          }
        }
        break;
      case RowOrder::kMuller: {
        // A query that meets more candidates than particles ends its row
        // with one 0 per candidate dropped (variants.h, MullerHashGrid):
        // such a row is checked entry by entry against its definition.
        if (!populations) {
          populations = reference::MullerBucketPopulations(
              points, params.spacing, params.table_size);
        }
        if (reference::MullerQuerySize(points, params.spacing, params.max_dist,
                                       params.table_size, *populations,
                                       i) > n) {
          const Row defined = reference::MullerRow(
              points, params.spacing, params.max_dist, params.table_size, i);
          if (Row(row.begin(), row.end()) != defined) {
            return RowDifference(i, defined, Row(row.begin(), row.end()), got,
                                 ", a query past its N slots");
          }
          break;
        }
        std::sort(sorted.begin(), sorted.end());
        Row distinct = sorted;
        distinct.erase(std::unique(distinct.begin(), distinct.end()),
                       distinct.end());
        // Müller's window (max_dist where the others reach one ulp further)
        // misses a pair the predicate accepts exactly when none of its
        // cells shares the other particle's bucket.
        std::erase_if(want, [&](std::uint32_t j) {
          return !MullerReaches(points, params, i, j);
        });
        if (distinct != want) {
          return RowDifference(i, want, distinct, got,
                               ", sorted and deduplicated here");
        }
        if (!muller_multiplicity) break;
        for (auto first = sorted.begin(); first != sorted.end();) {
          const auto last = std::upper_bound(first, sorted.end(), *first);
          const auto times = static_cast<std::uint32_t>(last - first);
          const std::uint32_t predicted = reference::MullerMultiplicity(
              points, params.spacing, params.max_dist, params.table_size, i,
              *first);
          if (times != predicted) {
            return "pair (" + std::to_string(i) + ", " +
                   std::to_string(*first) + ") listed " +
                   std::to_string(times) + " times, but " +
                   std::to_string(predicted) +
                   " cells of the window share its bucket";
          }
          first = last;
        }
        break;
      }
    }
  }
  return "";
}

std::uint64_t MullerQueriesPastSlots(const Points& points,
                                     const Params& params) {
  const auto populations = reference::MullerBucketPopulations(
      points, params.spacing, params.table_size);
  std::uint64_t past = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    past += reference::MullerQuerySize(points, params.spacing, params.max_dist,
                                       params.table_size, populations,
                                       i) > points.size()
                ? 1
                : 0;
  }
  return past;
}

Statistics StatisticsOf(const Neighbors& got) {
  Statistics stats;
  const std::size_t n = got.csr.rows();
  stats.entries = got.csr.entries();
  stats.neighbor_counts.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    Row row(got.csr.Row(i).begin(), got.csr.Row(i).end());
    if (got.order == RowOrder::kMuller) {
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    stats.distinct += row.size();
    stats.neighbor_counts[i] += row.size();
    if (got.list == ListKind::kHalf) {
      for (const std::uint32_t j : row) {
        if (j < n) ++stats.neighbor_counts[j];
      }
    }
  }
  stats.duplicates = stats.entries - stats.distinct;
  stats.pairs =
      got.list == ListKind::kFull ? stats.distinct / 2 : stats.distinct;
  if (n > 0) {
    stats.candidates_per_particle =
        static_cast<double>(got.candidates) / static_cast<double>(n);
    stats.neighbors_per_particle =
        2 * static_cast<double>(stats.pairs) / static_cast<double>(n);
  }
  return stats;
}

}  // namespace adj::checks::hash_grid

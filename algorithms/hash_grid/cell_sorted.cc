// Ours: particles counting-sorted by their exact cell, so that a cell is a
// contiguous range of slots and the cells x-1 .. x+1 of one (y, z) row are
// one contiguous range too (cells in z, y, x lexicographic order). No hash:
// no bucket shared by two cells, no duplicate candidates, and each cell's
// window is computed once for all of its particles.
//
//   1. cells: floor(c / spacing) per particle (Müller's intCoord);
//   2. sort: when the occupied box has at most 4N + 4096 cells, a counting
//      sort over the dense box (count, exclusive scan, fill in ascending
//      id order); otherwise (clusters far apart, huge coordinates) a
//      comparison sort of (cell, id) keys and binary searches for the rows;
//   3. query, per cell: the union of its particles' windows (hash_grid.h:
//      WindowReach); per
//      (y, z) row of the window one slot range; per particle every slot of
//      the ranges through Müller's predicate, written branch-free to a
//      scratch buffer as original ids, the row sorted while it is hot;
//   4. rows: counts by original id, one exclusive scan, each row copied to
//      its place.
// Threads take contiguous cells holding about N / threads particles each;
// rows are sorted, so the CSR is the same for any thread count.
#include "algorithms/hash_grid/cell_sorted.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/interrupt.h"
#include "algorithms/common/memory_budget.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/hash_grid/point_search.h"
#include "algorithms/hash_grid/variants.h"
#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::hash_grid {
namespace detail {

using Key = std::array<std::int32_t, 3>;  // (z, y, x): lexicographic order

struct Grid {
  // Sorted particles: slot s holds particle perm[s] at (x, y, z)[s].
  std::vector<float> x, y, z;
  std::vector<std::uint32_t> perm;
  // Cell c holds slots [start[c], start[c + 1]); cells in (z, y, x) order.
  std::vector<std::uint32_t> start;
  bool dense = true;
  // Dense: every cell of the box [low, low + size).
  std::int64_t low[3] = {0, 0, 0};   // x, y, z
  std::int64_t size[3] = {0, 0, 0};  // x, y, z
  // Sparse: the occupied cells' keys.
  std::vector<Key> keys;

  std::size_t cells() const { return start.size() - 1; }

  // Slots of the cells (x_lo .. x_hi, y, z).
  std::pair<std::uint32_t, std::uint32_t> RowRange(std::int64_t x_lo,
                                                   std::int64_t x_hi,
                                                   std::int64_t y_,
                                                   std::int64_t z_) const {
    if (dense) {
      const std::int64_t yy = y_ - low[1];
      const std::int64_t zz = z_ - low[2];
      const std::int64_t first = std::max(x_lo - low[0], std::int64_t{0});
      const std::int64_t last = std::min(x_hi - low[0], size[0] - 1);
      if (yy < 0 || yy >= size[1] || zz < 0 || zz >= size[2] || first > last) {
        return {0, 0};
      }
      const std::size_t row =
          static_cast<std::size_t>((zz * size[1] + yy) * size[0]);
      return {start[row + static_cast<std::size_t>(first)],
              start[row + static_cast<std::size_t>(last) + 1]};
    }
    const Key lo = {static_cast<std::int32_t>(z_),
                    static_cast<std::int32_t>(y_),
                    static_cast<std::int32_t>(x_lo)};
    const Key hi = {static_cast<std::int32_t>(z_),
                    static_cast<std::int32_t>(y_),
                    static_cast<std::int32_t>(x_hi)};
    const auto a = std::lower_bound(keys.begin(), keys.end(), lo);
    const auto b = std::upper_bound(a, keys.end(), hi);
    return {start[static_cast<std::size_t>(a - keys.begin())],
            start[static_cast<std::size_t>(b - keys.begin())]};
  }
};

namespace {

// Per-thread scratch, kept between calls.
// What the threads' scratch rows of one query have grown by, together: the
// lists are only known as they are found, so each growth is asked of the
// memory budget (twice its bytes: the lists are copied once more into the
// CSR) before it is allocated.
class ScratchGrowth {
 public:
  void Take(std::size_t entries) {
    const std::uint64_t bytes = memory::Bytes(entries, sizeof(std::uint32_t));
    const std::uint64_t total =
        grown_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    memory::Require(memory::Bytes(total, 2),
                    "hash_grid: the neighbour lists found so far");
  }

 private:
  std::atomic<std::uint64_t> grown_{0};
};

struct Scratch {
  std::vector<std::uint32_t> entries;
  std::size_t used = 0;
  void Reserve(std::size_t more, ScratchGrowth& growth) {
    if (used + more > entries.size()) {
      const std::size_t size = std::max(2 * entries.size(), used + more);
      growth.Take(size - entries.size());
      entries.resize(size);
    }
  }
};

// The calling thread's grid, kept between calls. Taken by reference before
// a parallel region: inside it, a thread_local name would be each thread's
// own (empty) instance.
Grid& CallerGrid() {
  thread_local Grid grid;
  return grid;
}

std::vector<Scratch>& Scratches(std::size_t threads) {
  thread_local std::vector<Scratch> scratches;
  if (scratches.size() < threads) scratches.resize(threads);
  return scratches;
}

}  // namespace

void Build(const Points& points, float spacing, Grid& grid) {
  const std::size_t n = points.size();
  std::vector<Key> cell(n);
  std::int64_t low[3] = {std::numeric_limits<std::int64_t>::max(),
                         std::numeric_limits<std::int64_t>::max(),
                         std::numeric_limits<std::int64_t>::max()};
  std::int64_t high[3] = {std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::min()};
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t c[3] = {IntCoord(points.x[i], spacing),
                               IntCoord(points.y[i], spacing),
                               IntCoord(points.z[i], spacing)};
    for (int a = 0; a < 3; ++a) {
      low[a] = std::min(low[a], c[a]);
      high[a] = std::max(high[a], c[a]);
    }
    // |c| <= kMaxCellCoord (Check): fits int32.
    cell[i] = {static_cast<std::int32_t>(c[2]), static_cast<std::int32_t>(c[1]),
               static_cast<std::int32_t>(c[0])};
  }
  grid.x.resize(n);
  grid.y.resize(n);
  grid.z.resize(n);
  grid.perm.resize(n);
  const double box = n == 0 ? 0.0
                            : static_cast<double>(high[0] - low[0] + 1) *
                                  static_cast<double>(high[1] - low[1] + 1) *
                                  static_cast<double>(high[2] - low[2] + 1);
  grid.dense = box <= 4.0 * static_cast<double>(n) + 4096.0;
  if (grid.dense) {
    for (int a = 0; a < 3; ++a) {
      grid.low[a] = n == 0 ? 0 : low[a];
      grid.size[a] = n == 0 ? 0 : high[a] - low[a] + 1;
    }
    const std::size_t cells = static_cast<std::size_t>(box);
    const auto linear = [&](const Key& k) {
      return static_cast<std::size_t>(
          ((k[0] - grid.low[2]) * grid.size[1] + (k[1] - grid.low[1])) *
              grid.size[0] +
          (k[2] - grid.low[0]));
    };
    // start[c + 1] counts, then the exclusive scan makes it cell c's start;
    // the fill moves it to c's end, which is c + 1's start.
    grid.start.assign(cells + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++grid.start[linear(cell[i]) + 1];
    const std::span<std::uint32_t> counts(grid.start.data() + 1, cells);
    prefix_sum::Scan(prefix_sum::Kind::kExclusive, counts, counts);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t s = grid.start[linear(cell[i]) + 1]++;
      grid.perm[s] = static_cast<std::uint32_t>(i);
    }
    grid.keys.clear();
  } else {
    std::iota(grid.perm.begin(), grid.perm.end(), 0u);
    std::sort(grid.perm.begin(), grid.perm.end(),
              [&](std::uint32_t a, std::uint32_t b) {
                return std::tie(cell[a], a) < std::tie(cell[b], b);
              });
    grid.keys.clear();
    grid.start.clear();
    for (std::size_t s = 0; s < n; ++s) {
      const Key& k = cell[grid.perm[s]];
      if (grid.keys.empty() || grid.keys.back() != k) {
        grid.keys.push_back(k);
        grid.start.push_back(static_cast<std::uint32_t>(s));
      }
    }
    grid.start.push_back(static_cast<std::uint32_t>(n));
  }
  if (grid.start.empty()) grid.start.push_back(0);
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t i = grid.perm[s];
    grid.x[s] = points.x[i];
    grid.y[s] = points.y[i];
    grid.z[s] = points.z[i];
  }
}

namespace {

// The rows of the slots of cells [c_begin, c_end) into `scratch`, their
// sizes into counts[slot]; returns the candidates tested.
std::uint64_t QueryCells(const Grid& grid, const Params& params, bool half,
                         bool sort_rows, RowFilter* filter, std::size_t c_begin,
                         std::size_t c_end, std::uint32_t* counts,
                         Scratch& scratch, ScratchGrowth& growth) {
  const double max_dist2 = static_cast<double>(params.max_dist) *
                           static_cast<double>(params.max_dist);
  const double reach = WindowReach(params.max_dist);
  const float spacing = params.spacing;
  const float* gx = grid.x.data();
  const float* gy = grid.y.data();
  const float* gz = grid.z.data();
  const std::uint32_t* perm = grid.perm.data();
  const Slots slots{gx, gy, gz, perm};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  std::uint64_t candidates = 0;
  for (std::size_t c = c_begin; c < c_end; ++c) {
    interrupt::Poll();
    const std::uint32_t first = grid.start[c];
    const std::uint32_t last = grid.start[c + 1];
    if (first == last) continue;
    // The union of the particles' windows: each particle's own window lies
    // inside, so every neighbour the predicate accepts is a candidate.
    std::int64_t lo[3] = {std::numeric_limits<std::int64_t>::max(),
                          std::numeric_limits<std::int64_t>::max(),
                          std::numeric_limits<std::int64_t>::max()};
    std::int64_t hi[3] = {std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::min()};
    for (std::uint32_t s = first; s < last; ++s) {
      const double p[3] = {gx[s], gy[s], gz[s]};
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], IntCoord(p[a] - reach, spacing));
        hi[a] = std::max(hi[a], IntCoord(p[a] + reach, spacing));
      }
    }
    ranges.clear();
    std::size_t range_slots = 0;
    for (std::int64_t zc = lo[2]; zc <= hi[2]; ++zc) {
      for (std::int64_t yc = lo[1]; yc <= hi[1]; ++yc) {
        const auto range = grid.RowRange(lo[0], hi[0], yc, zc);
        if (range.first < range.second) {
          ranges.push_back(range);
          range_slots += range.second - range.first;
        }
      }
    }
    for (std::uint32_t s = first; s < last; ++s) {
      const double p[3] = {gx[s], gy[s], gz[s]};
      const std::uint32_t self = perm[s];
      scratch.Reserve(range_slots, growth);
      std::uint32_t* row = scratch.entries.data() + scratch.used;
      std::size_t kept = 0;
      for (const auto& [begin, end] : ranges) {
        kept += filter(p, self, half, slots, begin, end, max_dist2, row + kept);
      }
      candidates += range_slots;
      if (sort_rows) std::sort(row, row + kept);
      scratch.used += kept;
      counts[s] = static_cast<std::uint32_t>(kept);
    }
  }
  return candidates;
}

}  // namespace

std::size_t ScalarRowFilter(const double p[3], std::uint32_t self, bool half,
                            const Slots& slots, std::uint32_t begin,
                            std::uint32_t end, double max_dist2,
                            std::uint32_t* row) {
  std::size_t kept = 0;
  for (std::uint32_t j = begin; j < end; ++j) {
    const double a0 = p[0] - slots.x[j];
    const double a1 = p[1] - slots.y[j];
    const double a2 = p[2] - slots.z[j];
    const double dist2 = a0 * a0 + a1 * a1 + a2 * a2;
    const std::uint32_t other = slots.perm[j];
    const bool near = dist2 <= max_dist2;
    const bool keep = half ? near & (other < self) : near & (other != self);
    row[kept] = other;
    kept += keep ? 1 : 0;
  }
  return kept;
}

void CellSortedQueryAll(const Points& points, const Params& params,
                        ListKind list, int threads,
                        std::size_t min_particles_per_thread, Neighbors& out,
                        RowFilter* filter, bool sort_rows) {
  const std::size_t n = points.size();
  Grid& grid = CallerGrid();
  Build(points, params.spacing, grid);
  const std::size_t team_max = static_cast<std::size_t>(std::clamp<std::size_t>(
      n / std::max<std::size_t>(min_particles_per_thread, 1), 1,
      static_cast<std::size_t>(threads)));
  std::vector<Scratch>& scratches = Scratches(team_max);
  std::vector<std::uint32_t> counts(n);
  std::vector<std::uint32_t>& offsets = out.csr.offsets;
  offsets.assign(n + 1, 0);
  std::vector<std::uint64_t> candidates(team_max, 0);
  std::vector<std::size_t> cell_bounds(team_max + 1, 0);
  std::uint64_t total = 0;
  bool overflow = false;
  int team_size = 1;

  ScratchGrowth growth;
  // Phases in Run, so that a thread that fails (the budget refusing its
  // scratch, say) still reaches the barriers.
  ExceptionTrap trap;
#pragma omp parallel num_threads(static_cast <int>(team_max)) if (team_max > 1)
  {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    // Cells whose first slot lies in this thread's share of the slots.
    const auto first_cell = [&](std::size_t u) {
      if (u == 0) return std::size_t{0};
      if (u == team) return grid.cells();
      const auto target = static_cast<std::uint32_t>(n * u / team);
      return static_cast<std::size_t>(
          std::lower_bound(grid.start.begin(), grid.start.end() - 1, target) -
          grid.start.begin());
    };
    const std::size_t c_begin = first_cell(t);
    const std::size_t c_end = first_cell(t + 1);
    Scratch& scratch = scratches[t];
    const std::uint32_t s_begin = grid.start[c_begin];
    const std::uint32_t s_end = grid.start[c_end];
    trap.Run([&] {
      fault::Point("hash_grid.cell_sorted.query");
      scratch.used = 0;
      candidates[t] =
          QueryCells(grid, params, list == ListKind::kHalf, sort_rows, filter,
                     c_begin, c_end, counts.data(), scratch, growth);
      // Rows by original id.
      for (std::uint32_t s = s_begin; s < s_end; ++s) {
        offsets[grid.perm[s]] = counts[s];
      }
    });
#pragma omp barrier
#pragma omp single
    trap.Run([&] {
      team_size = static_cast<int>(team);
      for (std::size_t u = 0; u < team; ++u) total += scratches[u].used;
      overflow = total > std::numeric_limits<std::uint32_t>::max();
      if (!overflow) {
        const std::span<std::uint32_t> rows(offsets.data(), n);
        prefix_sum::Scan(prefix_sum::Kind::kExclusive, rows, rows);
        offsets[n] = static_cast<std::uint32_t>(total);
        memory::Require(memory::Bytes(total, sizeof(std::uint32_t)),
                        "hash_grid: the neighbour lists");
        out.csr.indices.resize(total);
      }
    });  // implicit barrier
    if (!overflow) {
      trap.Run([&] {
        const std::uint32_t* from = scratch.entries.data();
        std::uint32_t* to = out.csr.indices.data();
        for (std::uint32_t s = s_begin; s < s_end; ++s) {
          const std::uint32_t count = counts[s];
          if (count != 0) {
            std::memcpy(to + offsets[grid.perm[s]], from,
                        count * sizeof(std::uint32_t));
          }
          from += count;
        }
      });
    }
  }
  trap.Rethrow();
  if (overflow) {
    throw Error("hash_grid: " + std::to_string(total) +
                " neighbour entries, more than uint32 offsets can address");
  }
  out.list = list;
  out.order = sort_rows ? RowOrder::kAscending : RowOrder::kCell;
  out.candidates =
      std::accumulate(candidates.begin(), candidates.end(), std::uint64_t{0});
  out.threads = team_size;
}

}  // namespace detail

void CellSortedFull(const Points& points, const Params& params,
                    Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CellSortedFullTrusted(points, params, out);
}

void CellSortedFullTrusted(const Points& points, const Params& params,
                           Neighbors& out) {
  detail::CellSortedQueryAll(points, params, ListKind::kFull, 1,
                             detail::kMinParticlesPerThread, out);
}

void CellSortedHalf(const Points& points, const Params& params,
                    Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CellSortedHalfTrusted(points, params, out);
}

void CellSortedHalfTrusted(const Points& points, const Params& params,
                           Neighbors& out) {
  detail::CellSortedQueryAll(points, params, ListKind::kHalf, 1,
                             detail::kMinParticlesPerThread, out);
}

void CellSortedSimd(const Points& points, const Params& params,
                    Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CellSortedSimdTrusted(points, params, out);
}

void CellSortedSimdTrusted(const Points& points, const Params& params,
                           Neighbors& out) {
  detail::CellSortedQueryAll(points, params, ListKind::kFull, 1,
                             detail::kMinParticlesPerThread, out,
                             &detail::SimdRowFilter);
}

void CellOrderSimd(const Points& points, const Params& params, Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CellOrderSimdTrusted(points, params, out);
}

void CellOrderSimdTrusted(const Points& points, const Params& params,
                          Neighbors& out) {
  detail::CellSortedQueryAll(points, params, ListKind::kFull, 1,
                             detail::kMinParticlesPerThread, out,
                             &detail::SimdRowFilter, /*sort_rows=*/false);
}

struct PointSearch::Grid {
  detail::Grid cells;
};

PointSearch::PointSearch(const Points& targets, const Params& params)
    : grid_(std::make_unique<Grid>()), params_(params) {
  Check(targets, params, /*hashed=*/false);
  detail::Build(targets, params.spacing, grid_->cells);
}

PointSearch::~PointSearch() = default;
PointSearch::PointSearch(PointSearch&&) noexcept = default;
PointSearch& PointSearch::operator=(PointSearch&&) noexcept = default;

std::span<const std::uint32_t> PointSearch::cell_order() const {
  return grid_->cells.perm;
}

std::vector<std::uint32_t> PointSearch::Query(float x, float y, float z) const {
  Points one;
  one.PushBack(x, y, z);
  Check(one, params_, /*hashed=*/false);
  const detail::Grid& grid = grid_->cells;
  const double reach = WindowReach(params_.max_dist);
  const double max_dist2 = static_cast<double>(params_.max_dist) *
                           static_cast<double>(params_.max_dist);
  const double p[3] = {x, y, z};
  std::int64_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = IntCoord(p[a] - reach, params_.spacing);
    hi[a] = IntCoord(p[a] + reach, params_.spacing);
  }
  const detail::Slots slots{grid.x.data(), grid.y.data(), grid.z.data(),
                            grid.perm.data()};
  std::vector<std::uint32_t> row;
  for (std::int64_t zc = lo[2]; zc <= hi[2]; ++zc) {
    for (std::int64_t yc = lo[1]; yc <= hi[1]; ++yc) {
      const auto [begin, end] = grid.RowRange(lo[0], hi[0], yc, zc);
      if (begin >= end) continue;
      const std::size_t at = row.size();
      row.resize(at + (end - begin));
      // No id equals 2^32 - 1 (at most 2^31 - 1 points): none is skipped.
      const std::size_t kept = detail::ScalarRowFilter(
          p, 0xffffffffu, false, slots, begin, end, max_dist2, row.data() + at);
      row.resize(at + kept);
    }
  }
  std::sort(row.begin(), row.end());
  return row;
}

Csr PointSearch::QueryAll(const Points& queries) const {
  Check(queries, params_, /*hashed=*/false);
  Csr out;
  out.offsets.assign(1, 0);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const std::vector<std::uint32_t> row =
        Query(queries.x[i], queries.y[i], queries.z[i]);
    out.indices.insert(out.indices.end(), row.begin(), row.end());
    if (out.indices.size() > 0xffffffffu) {
      throw Error("hash_grid: more entries than 32-bit offsets address");
    }
    out.offsets.push_back(static_cast<std::uint32_t>(out.indices.size()));
  }
  return out;
}

}  // namespace adj::hash_grid

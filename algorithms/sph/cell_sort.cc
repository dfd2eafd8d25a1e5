#include "algorithms/sph/cell_sort.h"

#include <algorithm>
#include <span>

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::sph::detail {

CellBox SortByCell(const Points& x, const Params& params,
                   Workspace& workspace) {
  const std::size_t n = x.size();
  std::vector<std::uint64_t>& key_of = workspace.particle_keys;
  std::vector<std::uint64_t>& keys = workspace.cell_keys;
  std::vector<std::uint32_t>& order = workspace.entries;
  key_of.resize(n);
  keys.resize(n);
  order.resize(n);
  CellBox box;
  if (n == 0) return box;
  std::vector<detail::Cell> cells(n);
  detail::Cell lo = detail::CellOf(params, x.x[0], x.y[0], x.z[0]);
  detail::Cell hi = lo;
  for (std::size_t i = 0; i < n; ++i) {
    cells[i] = detail::CellOf(params, x.x[i], x.y[i], x.z[i]);
    lo = {std::min(lo.x, cells[i].x), std::min(lo.y, cells[i].y),
          std::min(lo.z, cells[i].z)};
    hi = {std::max(hi.x, cells[i].x), std::max(hi.y, cells[i].y),
          std::max(hi.z, cells[i].z)};
  }
  box = {lo.x,
         lo.y,
         lo.z,
         std::int64_t{hi.x} - lo.x + 1,
         std::int64_t{hi.y} - lo.y + 1,
         std::int64_t{hi.z} - lo.z + 1};
  for (std::size_t i = 0; i < n; ++i) {
    key_of[i] =
        box.Key(cells[i].x - box.x0, cells[i].y - box.y0, cells[i].z - box.z0);
  }
  const double box_cells = static_cast<double>(box.nx) *
                           static_cast<double>(box.ny) *
                           static_cast<double>(box.nz);
  if (box_cells <= 16.0 * static_cast<double>(n) + double{1 << 20}) {
    std::vector<std::uint32_t>& start = workspace.cell_start;
    start.assign(static_cast<std::size_t>(box_cells) + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++start[key_of[i] + 1];
    const std::span<std::uint32_t> counts(start.data() + 1, start.size() - 1);
    prefix_sum::SerialScan(prefix_sum::Kind::kInclusive, counts, counts);
    for (std::size_t i = 0; i < n; ++i) {
      order[start[key_of[i]]++] = static_cast<std::uint32_t>(i);
    }
    // The fill left each cell's end in its start: shift back, so that
    // cell c is [start[c], start[c + 1]).
    start.pop_back();
    start.insert(start.begin(), 0);
    box.dense = true;
  } else {
    for (std::size_t i = 0; i < n; ++i)
      order[i] = static_cast<std::uint32_t>(i);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t p, std::uint32_t q) {
                return key_of[p] != key_of[q] ? key_of[p] < key_of[q] : p < q;
              });
  }
  for (std::size_t k = 0; k < n; ++k) keys[k] = key_of[order[k]];
  return box;
}

void FindRows(const CellBox& box, bool parallel, Workspace& workspace) {
  const std::vector<std::uint64_t>& keys = workspace.cell_keys;
  const std::size_t n = keys.size();
  std::vector<std::uint32_t>& run = workspace.cell_run;
  std::vector<std::uint32_t>& begin = workspace.row_begin;
  std::vector<std::uint32_t>& end = workspace.row_end;
  const std::vector<std::uint32_t>& cell_start = workspace.cell_start;
  run.resize(n);
  // The first sorted position of each occupied cell.
  std::vector<std::uint32_t> firsts;
  for (std::size_t k = 0; k < n; ++k) {
    if (k == 0 || keys[k] != keys[k - 1]) {
      firsts.push_back(static_cast<std::uint32_t>(k));
    }
    run[k] = static_cast<std::uint32_t>(firsts.size() - 1);
  }
  const auto runs = static_cast<std::int64_t>(firsts.size());
  begin.resize(9 * firsts.size());
  end.resize(9 * firsts.size());
  const auto lower = [&](std::uint64_t key) {
    return static_cast<std::uint32_t>(
        std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
  };
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t c = 0; c < runs; ++c) {
    const std::uint64_t cell = keys[firsts[c]];
    const auto cx = static_cast<std::int64_t>(cell % box.nx);
    const auto cy = static_cast<std::int64_t>((cell / box.nx) % box.ny);
    const auto cz = static_cast<std::int64_t>(cell / (box.nx * box.ny));
    const std::int64_t x_lo = std::max<std::int64_t>(cx - 1, 0);
    const std::int64_t x_hi = std::min(cx + 1, box.nx - 1);
    int r = 0;
    for (std::int64_t dz = -1; dz <= 1; ++dz) {
      for (std::int64_t dy = -1; dy <= 1; ++dy, ++r) {
        const std::int64_t y = cy + dy;
        const std::int64_t z = cz + dz;
        const std::size_t at = 9 * static_cast<std::size_t>(c) + r;
        if (y < 0 || y >= box.ny || z < 0 || z >= box.nz) {
          begin[at] = end[at] = 0;
          continue;
        }
        const std::uint64_t first = box.Key(x_lo, y, z);
        const std::uint64_t last = box.Key(x_hi, y, z) + 1;
        begin[at] = box.dense ? cell_start[first] : lower(first);
        end[at] = box.dense ? cell_start[last] : lower(last);
      }
    }
  }
}

}  // namespace adj::sph::detail

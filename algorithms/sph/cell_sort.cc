#include "algorithms/sph/cell_sort.h"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <span>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/common/thread_counts.h"
#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::sph::detail {

namespace {

// Fills order (sorted position -> id) with the ids 0..n-1 by key, ascending
// ids inside a key, and start (cells + 1 entries) with each key's first
// sorted position. In parallel, each of T threads counts and places a
// contiguous block of ids, the blocks in thread order inside every key:
// the same order as serially.
void CountingSort(const std::vector<std::uint64_t>& key_of, std::size_t cells,
                  bool parallel, std::vector<std::uint32_t>& start,
                  std::vector<std::uint32_t>& order) {
  const std::size_t n = key_of.size();
  // Each thread counts every cell: worth it only where the cells are few
  // for the particles (a sparse box stays serial, its counts small).
  const std::size_t threads =
      parallel && n >= (1u << 16)
          ? static_cast<std::size_t>(omp_get_max_threads())
          : 1;
  if (threads == 1 || cells * threads > 4 * n) {
    start.assign(cells + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++start[key_of[i] + 1];
    const std::span<std::uint32_t> counts(start.data() + 1, cells);
    prefix_sum::Scan(prefix_sum::Kind::kInclusive, counts, counts);
    for (std::size_t i = 0; i < n; ++i) {
      order[start[key_of[i]]++] = static_cast<std::uint32_t>(i);
    }
    // The fill left each cell's end in its start: shift back, so that
    // cell c is [start[c], start[c + 1]).
    start.pop_back();
    start.insert(start.begin(), 0);
    return;
  }
  // Thread t's count of key c at offsets[t cells + c], then its first
  // place.
  const std::unique_ptr<std::uint32_t[]> offsets(
      new std::uint32_t[threads * cells]);
  start.resize(cells + 1);
  // Both phases in the trap, so that a thread that fails still reaches the
  // barrier.
  ExceptionTrap trap;
#pragma omp parallel num_threads(static_cast <int>(threads))
  {
    // The team may be smaller than asked for (nested, or dynamic threads).
    const auto team = static_cast<std::size_t>(omp_get_num_threads());
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t first = n * t / team;
    const std::size_t last = n * (t + 1) / team;
    std::uint32_t* mine = offsets.get() + t * cells;
    trap.Run([&] {
      fault::Point("sph.cell_sort.count");
      std::fill_n(mine, cells, 0u);
      for (std::size_t i = first; i < last; ++i) ++mine[key_of[i]];
    });
#pragma omp barrier
#pragma omp single
    trap.Run(
        [&] { KeyMajorOffsets(offsets.get(), team, cells, start.data()); });
    trap.Run([&] {
      for (std::size_t i = first; i < last; ++i) {
        order[mine[key_of[i]]++] = static_cast<std::uint32_t>(i);
      }
    });
  }
  trap.Rethrow();
}

}  // namespace

CellBox SortByCell(const Points& x, const Params& params, Workspace& workspace,
                   bool parallel) {
  const std::size_t n = x.size();
  std::vector<std::uint64_t>& key_of = workspace.particle_keys;
  std::vector<std::uint64_t>& keys = workspace.cell_keys;
  std::vector<std::uint32_t>& order = workspace.entries;
  key_of.resize(n);
  keys.resize(n);
  order.resize(n);
  CellBox box;
  if (n == 0) return box;
  // Every entry is written below: no zeroing.
  const std::unique_ptr<detail::Cell[]> cells(new detail::Cell[n]);
  const detail::Cell first = detail::CellOf(params, x.x[0], x.y[0], x.z[0]);
  detail::Cell lo = first;
  detail::Cell hi = first;
  const auto count = static_cast<std::int64_t>(n);
  ExceptionTrap cells_trap;
#pragma omp parallel if (parallel)
  {
    detail::Cell my_lo = first, my_hi = first;
#pragma omp for schedule(static) nowait
    for (std::int64_t i = 0; i < count; ++i) {
      cells_trap.Run([&] {
        fault::Point("sph.cell_sort.cells");
        const detail::Cell c = detail::CellOf(params, x.x[i], x.y[i], x.z[i]);
        cells[i] = c;
        my_lo = {std::min(my_lo.x, c.x), std::min(my_lo.y, c.y),
                 std::min(my_lo.z, c.z)};
        my_hi = {std::max(my_hi.x, c.x), std::max(my_hi.y, c.y),
                 std::max(my_hi.z, c.z)};
      });
    }
#pragma omp critical(adj_sph_cell_bounds)
    {
      lo = {std::min(lo.x, my_lo.x), std::min(lo.y, my_lo.y),
            std::min(lo.z, my_lo.z)};
      hi = {std::max(hi.x, my_hi.x), std::max(hi.y, my_hi.y),
            std::max(hi.z, my_hi.z)};
    }
  }
  cells_trap.Rethrow();
  box = {lo.x,
         lo.y,
         lo.z,
         std::int64_t{hi.x} - lo.x + 1,
         std::int64_t{hi.y} - lo.y + 1,
         std::int64_t{hi.z} - lo.z + 1};
  ExceptionTrap keys_trap;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < count; ++i) {
    keys_trap.Run([&] {
      fault::Point("sph.cell_sort.keys");
      key_of[i] = box.Key(cells[i].x - box.x0, cells[i].y - box.y0,
                          cells[i].z - box.z0);
    });
  }
  keys_trap.Rethrow();
  const double box_cells = static_cast<double>(box.nx) *
                           static_cast<double>(box.ny) *
                           static_cast<double>(box.nz);
  if (box_cells <= 16.0 * static_cast<double>(n) + double{1 << 20}) {
    CountingSort(key_of, static_cast<std::size_t>(box_cells), parallel,
                 workspace.cell_start, order);
    box.dense = true;
  } else {
    for (std::size_t i = 0; i < n; ++i)
      order[i] = static_cast<std::uint32_t>(i);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t p, std::uint32_t q) {
                return key_of[p] != key_of[q] ? key_of[p] < key_of[q] : p < q;
              });
  }
  ExceptionTrap sorted_trap;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t k = 0; k < count; ++k) {
    sorted_trap.Run([&] {
      fault::Point("sph.cell_sort.sorted_keys");
      keys[k] = key_of[order[k]];
    });
  }
  sorted_trap.Rethrow();
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
  std::vector<std::uint32_t>& firsts = workspace.cell_first;
  firsts.clear();
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
  ExceptionTrap trap;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t c = 0; c < runs; ++c) {
    trap.Run([&] {
      fault::Point("sph.cell_sort.rows");
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
    });
  }
  trap.Rethrow();
}

void SortCellsByX(const Points& x, bool parallel, Workspace& workspace) {
  std::vector<std::uint32_t>& order = workspace.entries;
  const std::vector<std::uint32_t>& first = workspace.cell_first;
  const auto runs = static_cast<std::int64_t>(first.size());
  ExceptionTrap trap;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t c = 0; c < runs; ++c) {
    trap.Run([&] {
      fault::Point("sph.cell_sort.by_x");
      const auto cell_begin = order.begin() + first[c];
      const auto cell_end =
          c + 1 < runs ? order.begin() + first[c + 1] : order.end();
      std::sort(cell_begin, cell_end, [&](std::uint32_t p, std::uint32_t q) {
        return x.x[p] != x.x[q] ? x.x[p] < x.x[q] : p < q;
      });
    });
  }
  trap.Rethrow();
}

}  // namespace adj::sph::detail

namespace adj::sph {

std::vector<std::uint32_t> ReorderByCell(State& state, const Params& params,
                                         bool parallel) {
  detail::CheckState(state, params, false, parallel);
  Workspace workspace;
  const detail::CellBox box =
      detail::SortByCell(state.x, params, workspace, parallel);
  detail::FindRows(box, parallel, workspace);
  detail::SortCellsByX(state.x, parallel, workspace);
  std::vector<std::uint32_t> permutation = std::move(workspace.entries);
  const auto permute = [&](std::vector<float>& values) {
    std::vector<float> sorted(values.size());
    const auto n = static_cast<std::int64_t>(values.size());
    ExceptionTrap trap;
#pragma omp parallel for schedule(static) if (parallel)
    for (std::int64_t k = 0; k < n; ++k) {
      trap.Run([&] {
        fault::Point("sph.reorder.permute");
        sorted[k] = values[permutation[k]];
      });
    }
    trap.Rethrow();
    values = std::move(sorted);
  };
  for (std::vector<float>* values :
       {&state.x.x, &state.x.y, &state.x.z, &state.v.x, &state.v.y, &state.v.z,
        &state.density, &state.mass}) {
    permute(*values);
  }
  return permutation;
}

}  // namespace adj::sph

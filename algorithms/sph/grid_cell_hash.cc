#include "algorithms/sph/grid_cell_hash.h"

#include <algorithm>
#include <span>
#include <vector>

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::sph::detail {

void BuildGridCellHash(const Points& x, const Params& params,
                       std::uint32_t table_size, Workspace& workspace) {
  const std::size_t n = x.size();
  std::vector<std::uint64_t>& particle_keys = workspace.particle_keys;
  particle_keys.resize(n);
  workspace.keys.resize(n);
  // Bucket counts, then ends; the neighbour-list buffer is free here.
  std::vector<std::uint32_t>& count = workspace.neighbor_start;
  count.assign(std::size_t{table_size} + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Cell cell = CellOf(params, x.x[i], x.y[i], x.z[i]);
    particle_keys[i] = CellKey(cell.x, cell.y, cell.z);
    workspace.keys[i] = TeschnerBucket(cell.x, cell.y, cell.z, table_size);
    ++count[workspace.keys[i] + 1];
  }
  const std::span<std::uint32_t> counts(count.data() + 1, table_size);
  prefix_sum::Scan(prefix_sum::Kind::kInclusive, counts, counts);
  workspace.entries.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    workspace.entries[count[workspace.keys[i]]++] =
        static_cast<std::uint32_t>(i);
  }
  // count[b] is now bucket b's end: sort each bucket's ids by cell, then
  // id, and cut it into cells.
  workspace.bucket_start.resize(std::size_t{table_size} + 1);
  workspace.cell_keys.clear();
  std::vector<std::uint32_t>& cell_start = workspace.cell_start;
  cell_start.clear();
  std::uint32_t begin = 0;
  for (std::uint32_t b = 0; b < table_size; ++b) {
    const std::uint32_t end = count[b];
    workspace.bucket_start[b] =
        static_cast<std::uint32_t>(workspace.cell_keys.size());
    auto first = workspace.entries.begin() + begin;
    auto last = workspace.entries.begin() + end;
    std::sort(first, last, [&](std::uint32_t p, std::uint32_t q) {
      return particle_keys[p] != particle_keys[q]
                 ? particle_keys[p] < particle_keys[q]
                 : p < q;
    });
    for (std::uint32_t k = begin; k < end; ++k) {
      const std::uint64_t key = particle_keys[workspace.entries[k]];
      if (k == begin || key != particle_keys[workspace.entries[k - 1]]) {
        workspace.cell_keys.push_back(key);
        cell_start.push_back(k);
      }
    }
    begin = end;
  }
  workspace.bucket_start[table_size] =
      static_cast<std::uint32_t>(workspace.cell_keys.size());
  cell_start.push_back(static_cast<std::uint32_t>(n));
}

}  // namespace adj::sph::detail

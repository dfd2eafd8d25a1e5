#include "algorithms/sph/teschner_hash.h"

#include <algorithm>
#include <span>

#include "algorithms/prefix_sum/prefix_sum.h"

namespace adj::sph::detail {

void BuildTeschnerHash(const Points& x, const Params& params,
                       std::uint32_t table_size, Workspace& workspace) {
  const std::size_t n = x.size();
  workspace.keys.resize(n);
  workspace.bucket_start.assign(std::size_t{table_size} + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Cell cell = CellOf(params, x.x[i], x.y[i], x.z[i]);
    const std::uint32_t bucket =
        TeschnerBucket(cell.x, cell.y, cell.z, table_size);
    workspace.keys[i] = bucket;
    ++workspace.bucket_start[bucket + 1];
  }
  const std::span<std::uint32_t> counts(workspace.bucket_start.data() + 1,
                                        table_size);
  prefix_sum::Scan(prefix_sum::Kind::kInclusive, counts, counts);
  workspace.entries.resize(n);
  // The fill advances a cursor per bucket; the bucket starts are restored
  // from the ends afterwards, so ids stay ascending inside a bucket.
  std::vector<std::uint32_t>& cursor = workspace.cell_start;
  cursor.assign(workspace.bucket_start.begin(),
                workspace.bucket_start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    workspace.entries[cursor[workspace.keys[i]]++] =
        static_cast<std::uint32_t>(i);
  }
}

void TeschnerDensities(const State& state, const Params& params,
                       Workspace& workspace, std::vector<float>& density,
                       StepReport& report) {
  const std::size_t n = state.size();
  const std::uint32_t table_size = TableSize(params, n);
  BuildTeschnerHash(state.x, params, table_size, workspace);
  const Kernels kernels(params.h);
  const Points& x = state.x;
  density.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    float sum = 0;
    report.candidates += ForEachCandidate(
        workspace, table_size, CellOf(params, x.x[i], x.y[i], x.z[i]),
        [&](std::uint32_t j) {
          const float r2 = SquaredDistance(x.x[i] - x.x[j], x.y[i] - x.y[j],
                                           x.z[i] - x.z[j]);
          if (r2 < kernels.h2) sum += DensityTerm(kernels, state.mass[j], r2);
        });
    density[i] = sum;
  }
}

}  // namespace adj::sph::detail

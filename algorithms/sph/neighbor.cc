#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/teschner_hash.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void NeighborStep(State& state, const Params& params, Workspace& workspace,
                  StepReport& report) {
  Check(state, params, false);
  report = {};
  const std::size_t n = state.size();
  const std::uint32_t table_size = detail::TableSize(params, n);
  detail::BuildTeschnerHash(state.x, params, table_size, workspace);
  const Kernels kernels(params.h);
  const Points& x = state.x;
  std::vector<std::uint32_t>& start = workspace.neighbor_start;
  std::vector<std::uint32_t>& ids = workspace.neighbor_ids;
  start.resize(n + 1);
  start[0] = 0;
  ids.clear();
  for (std::size_t i = 0; i < n; ++i) {
    float sum = 0;
    report.candidates += detail::ForEachCandidate(
        workspace, table_size, detail::CellOf(params, x.x[i], x.y[i], x.z[i]),
        [&](std::uint32_t j) {
          const float r2 = detail::SquaredDistance(
              x.x[i] - x.x[j], x.y[i] - x.y[j], x.z[i] - x.z[j]);
          if (r2 >= kernels.h2) return;
          sum += detail::DensityTerm(kernels, state.mass[j], r2);
          if (j == i) return;
          // The lists grow as they are found: each growth is asked of the
          // memory budget before it is allocated.
          if (ids.size() == ids.capacity()) {
            const std::size_t capacity =
                std::max<std::size_t>(2 * ids.capacity(), std::size_t{1} << 16);
            memory::Require(memory::Bytes(capacity, sizeof(std::uint32_t)),
                            "sph neighbor: the neighbour lists of " +
                                std::to_string(n) + " particles");
            ids.reserve(capacity);
          }
          ids.push_back(j);
        });
    state.density[i] = sum;
    if (ids.size() > 0xffffffffu) {
      throw Error("sph: more neighbour entries than 32-bit offsets address");
    }
    start[i + 1] = static_cast<std::uint32_t>(ids.size());
  }
  std::vector<float>& acceleration = workspace.scratch;
  acceleration.assign(3 * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    const detail::Sample self = detail::SampleOf(state, i, state.density[i]);
    detail::Vec3 a;
    for (std::uint32_t k = start[i]; k < start[i + 1]; ++k) {
      const std::uint32_t j = ids[k];
      const float dx = self.x - x.x[j];
      const float dy = self.y - x.y[j];
      const float dz = self.z - x.z[j];
      detail::AddPairAcceleration(
          kernels, params, self, detail::SampleOf(state, j, state.density[j]),
          dx, dy, dz, detail::SquaredDistance(dx, dy, dz), a);
    }
    report.interactions += start[i + 1] - start[i];
    acceleration[3 * i] = a.x;
    acceleration[3 * i + 1] = a.y;
    acceleration[3 * i + 2] = a.z;
  }
  const detail::Overstep overstep =
      detail::IntegrateAll(params, acceleration, state);
  detail::CheckFinished(state, params, overstep);
}

}  // namespace adj::sph

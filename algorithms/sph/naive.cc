#include <cstdint>
#include <vector>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/teschner_hash.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void NaiveStep(State& state, const Params& params, Workspace& workspace,
               StepReport& report) {
  Check(state, params, false);
  report = {};
  const std::size_t n = state.size();
  detail::TeschnerDensities(state, params, workspace, state.density, report);
  const std::uint32_t table_size = detail::TableSize(params, n);
  const Kernels kernels(params.h);
  const Points& x = state.x;
  std::vector<float>& acceleration = workspace.scratch;
  acceleration.assign(3 * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    const detail::Sample self = detail::SampleOf(state, i, state.density[i]);
    detail::Vec3 a;
    report.candidates += detail::ForEachCandidate(
        workspace, table_size, detail::CellOf(params, self.x, self.y, self.z),
        [&](std::uint32_t j) {
          if (j == i) return;
          const float dx = self.x - x.x[j];
          const float dy = self.y - x.y[j];
          const float dz = self.z - x.z[j];
          const float r2 = detail::SquaredDistance(dx, dy, dz);
          if (r2 >= kernels.h2) return;
          detail::AddPairAcceleration(
              kernels, params, self,
              detail::SampleOf(state, j, state.density[j]), dx, dy, dz, r2, a);
          ++report.interactions;
        });
    acceleration[3 * i] = a.x;
    acceleration[3 * i + 1] = a.y;
    acceleration[3 * i + 2] = a.z;
  }
  const detail::Overstep overstep =
      detail::IntegrateAll(params, acceleration, state);
  detail::CheckFinished(state, params, overstep);
}

}  // namespace adj::sph

#include <cstdint>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/teschner_hash.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void CollapseInplaceStep(State& state, const Params& params,
                         Workspace& workspace, StepReport& report) {
  Check(state, params, true);
  report = {};
  const std::size_t n = state.size();
  const std::uint32_t table_size = detail::TableSize(params, n);
  detail::BuildTeschnerHash(state.x, params, table_size, workspace);
  const Kernels kernels(params.h);
  Points& x = state.x;
  const double bound2 = detail::SquaredMoveBound(params);
  detail::Overstep overstep;
  for (std::size_t i = 0; i < n; ++i) {
    const detail::Sample self = detail::SampleOf(state, i, state.density[i]);
    float density = 0;
    detail::Vec3 a;
    report.candidates += detail::ForEachCandidate(
        workspace, table_size, detail::CellOf(params, self.x, self.y, self.z),
        [&](std::uint32_t j) {
          const float dx = self.x - x.x[j];
          const float dy = self.y - x.y[j];
          const float dz = self.z - x.z[j];
          const float r2 = detail::SquaredDistance(dx, dy, dz);
          if (r2 >= kernels.h2) return;
          density += detail::DensityTerm(kernels, state.mass[j], r2);
          if (j == i) return;
          detail::AddPairAcceleration(
              kernels, params, self,
              detail::SampleOf(state, j, state.density[j]), dx, dy, dz, r2, a);
          ++report.interactions;
        });
    state.density[i] = density;
    overstep.Note(i,
                  detail::Integrate(params, a, x.x[i], x.y[i], x.z[i],
                                    state.v.x[i], state.v.y[i], state.v.z[i]),
                  bound2);
  }
  detail::CheckFinished(state, params, overstep);
}

}  // namespace adj::sph

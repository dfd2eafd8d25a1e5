#pragma once

// Internal to algorithms/sph: the chapter's Algorithm 3, one pass over the
// particles with any neighbour search: density of t0 and the force from x,
// v of t0 and the densities of t-1 accumulated in the same loop, the new
// state written to workspace.next and swapped in at the end.

#include <cstdint>
#include <utility>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"

namespace adj::sph::detail {

// search(cell, visit) calls visit(j) for every candidate j of a particle in
// `cell` and returns how many it visited.
template <typename Search>
void CollapsedPass(State& state, const Params& params, Workspace& workspace,
                   StepReport& report, Search&& search) {
  const std::size_t n = state.size();
  const Kernels kernels(params.h);
  const Points& x = state.x;
  State& next = workspace.next;
  next.x.Resize(n);
  next.v.Resize(n);
  next.density.resize(n);
  const double bound2 = SquaredMoveBound(params);
  Overstep overstep;
  for (std::size_t i = 0; i < n; ++i) {
    const Sample self = SampleOf(state, i, state.density[i]);
    float density = 0;
    Vec3 a;
    report.candidates +=
        search(CellOf(params, self.x, self.y, self.z), [&](std::uint32_t j) {
          const float dx = self.x - x.x[j];
          const float dy = self.y - x.y[j];
          const float dz = self.z - x.z[j];
          const float r2 = SquaredDistance(dx, dy, dz);
          if (r2 >= kernels.h2) return;
          density += DensityTerm(kernels, state.mass[j], r2);
          if (j == i) return;
          AddPairAcceleration(kernels, params, self,
                              SampleOf(state, j, state.density[j]), dx, dy, dz,
                              r2, a);
          ++report.interactions;
        });
    next.density[i] = density;
    next.x.x[i] = self.x;
    next.x.y[i] = self.y;
    next.x.z[i] = self.z;
    next.v.x[i] = self.vx;
    next.v.y[i] = self.vy;
    next.v.z[i] = self.vz;
    overstep.Note(i,
                  Integrate(params, a, next.x.x[i], next.x.y[i], next.x.z[i],
                            next.v.x[i], next.v.y[i], next.v.z[i]),
                  bound2);
  }
  std::swap(state.x, next.x);
  std::swap(state.v, next.v);
  std::swap(state.density, next.density);
  CheckFinished(state, params, overstep);
}

}  // namespace adj::sph::detail

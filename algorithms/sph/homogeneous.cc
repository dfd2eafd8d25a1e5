#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/sph/grid_cell_hash.h"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

void HomogeneousStep(State& state, const Params& params, Workspace& workspace,
                     StepReport& report) {
  Check(state, params, true);
  const std::size_t n = state.size();
  for (std::size_t i = 1; i < n; ++i) {
    if (state.mass[i] != state.mass[0]) {
      throw Error("sph: homogeneous needs one fluid: particle " +
                  std::to_string(i) + " has another mass than particle 0");
    }
  }
  report = {};
  const std::uint32_t table_size = detail::TableSize(params, n);
  detail::BuildGridCellHash(state.x, params, table_size, workspace);
  const Kernels kernels(params.h);
  const float mass = n > 0 ? state.mass[0] : 0;
  // 1 / rho and p / rho of t-1, once per particle instead of once per pair.
  std::vector<float>& per_particle = workspace.scratch;
  per_particle.resize(2 * n);
  for (std::size_t j = 0; j < n; ++j) {
    const float inverse = 1.0f / state.density[j];
    per_particle[2 * j] = inverse;
    per_particle[2 * j + 1] =
        params.stiffness * (state.density[j] - params.rest_density) * inverse;
  }
  const Points& x = state.x;
  const Points& v = state.v;
  State& next = workspace.next;
  next.x.Resize(n);
  next.v.Resize(n);
  next.density.resize(n);
  const float half_spiky = 0.5f * kernels.spiky;
  const float drag = params.viscosity * kernels.viscous;
  const double bound2 = detail::SquaredMoveBound(params);
  detail::Overstep overstep;
  for (std::size_t i = 0; i < n; ++i) {
    const float xi = x.x[i], yi = x.y[i], zi = x.z[i];
    float cubes = 0;
    float ax = 0, ay = 0, az = 0;  // sum of g d / rho_j
    float bx = 0, by = 0, bz = 0;  // sum of g d p_j / rho_j
    float cx = 0, cy = 0, cz = 0;  // sum of s v_j / rho_j
    float weights = 0;             // sum of s / rho_j
    report.candidates += detail::ForEachCellParticle(
        workspace, table_size, detail::CellOf(params, xi, yi, zi),
        [&](std::uint32_t j) {
          const float dx = xi - x.x[j];
          const float dy = yi - x.y[j];
          const float dz = zi - x.z[j];
          const float r2 = detail::SquaredDistance(dx, dy, dz);
          if (r2 >= kernels.h2) return;
          const float d = kernels.h2 - r2;
          cubes += d * d * d;
          if (j == i) return;
          const float r = std::sqrt(r2);
          const float s = kernels.h - r;
          const float inverse = per_particle[2 * j];
          const float pressure = per_particle[2 * j + 1];
          const float g = r > 0 ? s * s / r : 0.0f;
          ax += inverse * g * dx;
          ay += inverse * g * dy;
          az += inverse * g * dz;
          bx += pressure * g * dx;
          by += pressure * g * dy;
          bz += pressure * g * dz;
          const float w = inverse * s;
          cx += w * v.x[j];
          cy += w * v.y[j];
          cz += w * v.z[j];
          weights += w;
          ++report.interactions;
        });
    const float own_inverse = per_particle[2 * i];
    const float p_i =
        params.stiffness * (state.density[i] - params.rest_density);
    const float scale = mass * own_inverse;
    const detail::Vec3 a{
        scale * (half_spiky * (p_i * ax + bx) + drag * (cx - v.x[i] * weights)),
        scale * (half_spiky * (p_i * ay + by) + drag * (cy - v.y[i] * weights)),
        scale *
            (half_spiky * (p_i * az + bz) + drag * (cz - v.z[i] * weights))};
    next.density[i] = mass * kernels.poly6 * cubes;
    next.x.x[i] = xi;
    next.x.y[i] = yi;
    next.x.z[i] = zi;
    next.v.x[i] = v.x[i];
    next.v.y[i] = v.y[i];
    next.v.z[i] = v.z[i];
    overstep.Note(
        i,
        detail::Integrate(params, a, next.x.x[i], next.x.y[i], next.x.z[i],
                          next.v.x[i], next.v.y[i], next.v.z[i]),
        bound2);
  }
  std::swap(state.x, next.x);
  std::swap(state.v, next.v);
  std::swap(state.density, next.density);
  detail::CheckFinished(state, params, overstep);
}

}  // namespace adj::sph

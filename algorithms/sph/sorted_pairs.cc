#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/sph/cell_sort.h"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

// Long: the step's three passes (densities, forces, integration) in
// order, over the cell-sorted arrays they share, declared once above them.
void SortedPairsStep(State& state, const Params& params, Workspace& workspace,
                     StepReport& report) {
  Check(state, params, false);
  report = {};
  const std::size_t n = state.size();
  const Points& x = state.x;
  const detail::CellBox box = detail::SortByCell(x, params, workspace);
  const std::vector<std::uint32_t>& order = workspace.entries;
  const std::vector<std::uint64_t>& keys = workspace.cell_keys;
  // The particles in cell order: x, y, z, vx, vy, vz, mass, density, and
  // the acceleration ax, ay, az.
  std::vector<float>& sorted = workspace.scratch;
  sorted.assign(11 * n, 0.0f);
  float* sx = sorted.data();
  float* sy = sx + n;
  float* sz = sy + n;
  float* svx = sz + n;
  float* svy = svx + n;
  float* svz = svy + n;
  float* smass = svz + n;
  float* sdensity = smass + n;
  float* sax = sdensity + n;
  float* say = sax + n;
  float* saz = say + n;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    sx[k] = x.x[i];
    sy[k] = x.y[i];
    sz[k] = x.z[i];
    svx[k] = state.v.x[i];
    svy[k] = state.v.y[i];
    svz[k] = state.v.z[i];
    smass[k] = state.mass[i];
  }
  const Kernels kernels(params.h);
  const float self_weight =
      kernels.poly6 * (kernels.h2 * kernels.h2 * kernels.h2);
  // Pass 1: densities, each pair within h once (its second particle is
  // later in cell order: a later row of the 3 x 3 rows around the cell, or
  // the same row past the first), kept as a half list for the forces.
  std::vector<std::uint32_t>& pair_start = workspace.neighbor_start;
  std::vector<std::uint32_t>& pair_ids = workspace.neighbor_ids;
  pair_start.resize(n + 1);
  pair_start[0] = 0;
  pair_ids.clear();
  for (std::size_t k = 0; k < n; ++k) sdensity[k] = smass[k] * self_weight;
  std::uint64_t tests = 0;
  std::vector<float> squared(64);
  // The rows after a cell's own (dz, dy) > (0, 0) whose 3 cells hold its
  // later neighbours, searched once per cell; then its own row past each
  // particle.
  constexpr int kRows = 4;
  constexpr std::int64_t kRowDy[kRows] = {1, -1, 0, 1};
  constexpr std::int64_t kRowDz[kRows] = {0, 1, 1, 1};
  for (std::size_t first = 0; first < n;) {
    const std::uint64_t cell = keys[first];
    std::size_t last = first;
    while (last < n && keys[last] == cell) ++last;
    const auto cx = static_cast<std::int64_t>(cell % box.nx);
    const auto cy = static_cast<std::int64_t>((cell / box.nx) % box.ny);
    const auto cz = static_cast<std::int64_t>(cell / (box.nx * box.ny));
    const std::int64_t x_lo = std::max<std::int64_t>(cx - 1, 0);
    const std::int64_t x_hi = std::min(cx + 1, box.nx - 1);
    const auto lower = [&](std::uint64_t key) {
      return static_cast<std::uint32_t>(
          std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
    };
    std::uint32_t begin[kRows + 1];
    std::uint32_t end[kRows + 1];
    // Row 0: the own row, from the particle on; its end is past cell x + 1.
    end[0] = lower(box.Key(x_hi, cy, cz) + 1);
    int rows = 1;
    for (int r = 0; r < kRows; ++r) {
      const std::int64_t y = cy + kRowDy[r];
      const std::int64_t z = cz + kRowDz[r];
      if (y < 0 || y >= box.ny || z >= box.nz) continue;
      begin[rows] = lower(box.Key(x_lo, y, z));
      end[rows] = lower(box.Key(x_hi, y, z) + 1);
      ++rows;
    }
    for (std::size_t k = first; k < last; ++k) {
      begin[0] = static_cast<std::uint32_t>(k + 1);
      const float xi = sx[k], yi = sy[k], zi = sz[k], mi = smass[k];
      float density = 0;
      for (int r = 0; r < rows; ++r) {
        if (end[r] <= begin[r]) continue;
        const std::uint32_t length = end[r] - begin[r];
        tests += length;
        // The row's squared distances first, in a loop the compiler
        // vectorises, then the few within h.
        if (squared.size() < length) squared.resize(length);
        const float* rx = sx + begin[r];
        const float* ry = sy + begin[r];
        const float* rz = sz + begin[r];
        float* out = squared.data();
        for (std::uint32_t t = 0; t < length; ++t) {
          out[t] = detail::SquaredDistance(xi - rx[t], yi - ry[t], zi - rz[t]);
        }
        for (std::uint32_t t = 0; t < length; ++t) {
          const float r2 = out[t];
          if (r2 >= kernels.h2) continue;
          const std::uint32_t j = begin[r] + t;
          const float d = kernels.h2 - r2;
          const float w = kernels.poly6 * (d * d * d);
          density += smass[j] * w;
          sdensity[j] += mi * w;
          pair_ids.push_back(j);
        }
      }
      sdensity[k] += density;
      if (pair_ids.size() > 0xffffffffu) {
        throw Error("sph: more neighbour pairs than 32-bit offsets address");
      }
      pair_start[k + 1] = static_cast<std::uint32_t>(pair_ids.size());
    }
    first = last;
  }
  // Pass 2: the forces of each pair, equal and opposite. Per particle
  // once: 1 / rho and the pressure; F_ij / (m_i m_j) = (push d + drag (v_j -
  // v_i)) / (rho_i rho_j), of which a_i gains m_j and a_j loses m_i.
  std::vector<float>& pressure_of = workspace.next.density;
  pressure_of.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    pressure_of[k] = params.stiffness * (sdensity[k] - params.rest_density);
  }
  std::vector<float>& inverse_of = workspace.next.mass;
  inverse_of.resize(n);
  for (std::size_t k = 0; k < n; ++k) inverse_of[k] = 1.0f / sdensity[k];
  const float half_spiky = 0.5f * kernels.spiky;
  const float drag_scale = params.viscosity * kernels.viscous;
  for (std::size_t k = 0; k < n; ++k) {
    const float xi = sx[k], yi = sy[k], zi = sz[k];
    const float vxi = svx[k], vyi = svy[k], vzi = svz[k];
    const float pi = pressure_of[k], inv_i = inverse_of[k], mi = smass[k];
    float ax = 0, ay = 0, az = 0;
    for (std::uint32_t e = pair_start[k]; e < pair_start[k + 1]; ++e) {
      const std::uint32_t j = pair_ids[e];
      const float dx = xi - sx[j];
      const float dy = yi - sy[j];
      const float dz = zi - sz[j];
      const float r2 = detail::SquaredDistance(dx, dy, dz);
      const float r = std::sqrt(r2);
      const float s = kernels.h - r;
      const float push =
          r > 0 ? half_spiky * (pi + pressure_of[j]) * (s * s) / r : 0.0f;
      const float drag = drag_scale * s;
      const float weight = inv_i * inverse_of[j];
      const float tx = weight * (push * dx + drag * (svx[j] - vxi));
      const float ty = weight * (push * dy + drag * (svy[j] - vyi));
      const float tz = weight * (push * dz + drag * (svz[j] - vzi));
      ax += smass[j] * tx;
      ay += smass[j] * ty;
      az += smass[j] * tz;
      sax[j] -= mi * tx;
      say[j] -= mi * ty;
      saz[j] -= mi * tz;
    }
    sax[k] += ax;
    say[k] += ay;
    saz[k] += az;
  }
  report.interactions = 2 * std::uint64_t{pair_ids.size()};
  report.candidates = tests;
  // Pass 3: integrate, back in the state's order.
  const double bound2 = detail::SquaredMoveBound(params);
  detail::Overstep overstep;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    state.density[i] = sdensity[k];
    overstep.Note(i,
                  detail::Integrate(params, {sax[k], say[k], saz[k]},
                                    state.x.x[i], state.x.y[i], state.x.z[i],
                                    state.v.x[i], state.v.y[i], state.v.z[i]),
                  bound2);
  }
  detail::CheckFinished(state, params, overstep);
}

}  // namespace adj::sph

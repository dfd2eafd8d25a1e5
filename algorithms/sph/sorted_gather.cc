#include "algorithms/sph/sorted_gather.h"

#include <omp.h>

#include <cassert>
#include <cmath>
#include <cstdint>
#include <vector>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/sph/cell_sort.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {
namespace detail {

namespace {

float ScalarDensity(const SortedFluid& f, const PairConstants& c, std::size_t k,
                    const std::uint32_t* begin, const std::uint32_t* end) {
  const float xk = f.x[k], yk = f.y[k], zk = f.z[k];
  float sum = 0;
  for (int row = 0; row < kRows; ++row) {
    for (std::uint32_t j = begin[row]; j < end[row]; ++j) {
      const float r2 = SquaredDistance(xk - f.x[j], yk - f.y[j], zk - f.z[j]);
      if (r2 >= c.h2) continue;
      const float d = c.h2 - r2;
      sum += f.mass[j] * (c.poly6 * (d * d * d));
    }
  }
  return sum;
}

std::uint32_t ScalarForce(const SortedFluid& f, const PairConstants& c,
                          std::size_t k, const std::uint32_t* begin,
                          const std::uint32_t* end, float a[3]) {
  const float xk = f.x[k], yk = f.y[k], zk = f.z[k];
  const float pk = f.pressure[k], ik = f.inverse[k];
  std::uint32_t pairs = 0;
  for (int row = 0; row < kRows; ++row) {
    for (std::uint32_t j = begin[row]; j < end[row]; ++j) {
      if (j == k) continue;
      const float dx = xk - f.x[j];
      const float dy = yk - f.y[j];
      const float dz = zk - f.z[j];
      const float r2 = SquaredDistance(dx, dy, dz);
      if (r2 >= c.h2) continue;
      const float r = std::sqrt(r2);
      const float s = c.h - r;
      const float push =
          r > 0 ? c.half_spiky * (pk + f.pressure[j]) * (s * s) / r : 0.0f;
      const float drag = c.drag * s;
      const float weight = f.mass[j] * (ik * f.inverse[j]);
      a[0] += weight * (push * dx + drag * (f.vx[j] - f.vx[k]));
      a[1] += weight * (push * dy + drag * (f.vy[j] - f.vy[k]));
      a[2] += weight * (push * dz + drag * (f.vz[j] - f.vz[k]));
      ++pairs;
    }
  }
  return pairs;
}

}  // namespace

SortedFluid SortedCopy(const State& state,
                       const std::vector<std::uint32_t>& order,
                       std::size_t arrays, std::size_t zeroed_from,
                       bool parallel, std::vector<float>& storage) {
  assert(zeroed_from >= 7 && zeroed_from <= arrays);
  const std::size_t size = state.size();
  const std::size_t stride = size + kPadding;
  // Arrays 0 to 6 are copied below and arrays from zeroed_from on zeroed
  // there (no serial pass over all of them); 7 to zeroed_from - 1 are left
  // for the caller; every array's padding is zeroed here.
  storage.resize(arrays * stride);
  float* base = storage.data();
  SortedFluid f{size,
                base,
                base + stride,
                base + 2 * stride,
                base + 3 * stride,
                base + 4 * stride,
                base + 5 * stride,
                base + 6 * stride,
                base + 7 * stride,
                base + 8 * stride,
                base + 9 * stride};
  const auto n = static_cast<std::int64_t>(size);
  ExceptionTrap trap_1;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_1.Run([&] {
      fault::Point("sph.sorted_gather.1");
      const std::uint32_t i = order[k];
      f.x[k] = state.x.x[i];
      f.y[k] = state.x.y[i];
      f.z[k] = state.x.z[i];
      f.vx[k] = state.v.x[i];
      f.vy[k] = state.v.y[i];
      f.vz[k] = state.v.z[i];
      f.mass[k] = state.mass[i];
      for (std::size_t a = zeroed_from; a < arrays; ++a) {
        base[a * stride + k] = 0.0f;
      }
    });
  }
  trap_1.Rethrow();
  for (std::size_t a = 0; a < arrays; ++a) {
    std::fill_n(base + a * stride + size, kPadding, 0.0f);
  }
  return f;
}

PairConstants PairConstantsOf(const Params& params) {
  const Kernels shape(params.h);
  return {shape.h, shape.h2, shape.poly6, 0.5f * shape.spiky,
          params.viscosity * shape.viscous};
}

GatherKernels ScalarGatherKernels() { return {&ScalarDensity, &ScalarForce}; }

void GatherStep(State& state, const Params& params, Workspace& workspace,
                StepReport& report, const GatherKernels& kernels,
                bool parallel) {
  CheckState(state, params, false, parallel);
  report = {};
  report.threads = parallel ? omp_get_max_threads() : 1;
  const auto n = static_cast<std::int64_t>(state.size());
  const CellBox box = SortByCell(state.x, params, workspace, parallel);
  FindRows(box, parallel, workspace);
  const std::vector<std::uint32_t>& order = workspace.entries;
  const std::uint32_t* run = workspace.cell_run.data();
  const std::uint32_t* row_begin = workspace.row_begin.data();
  const std::uint32_t* row_end = workspace.row_end.data();
  const SortedFluid f =
      SortedCopy(state, order, 10, 10, parallel, workspace.scratch);
  const PairConstants c = PairConstantsOf(params);
  std::uint64_t candidates = 0;
  std::uint64_t interactions = 0;
  // Pass 1: densities of t0.
  ExceptionTrap trap_2;
#pragma omp parallel for schedule(dynamic, 256) if (parallel) \
    reduction(+ : candidates)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_2.Run([&] {
      fault::Point("sph.sorted_gather.2");
      const std::size_t rows = kRows * std::size_t{run[k]};
      const float density = kernels.density(f, c, static_cast<std::size_t>(k),
                                            row_begin + rows, row_end + rows);
      for (std::size_t r = rows; r < rows + kRows; ++r) {
        candidates += row_end[r] - row_begin[r];
      }
      f.density[k] = density;
      f.pressure[k] = params.stiffness * (density - params.rest_density);
      f.inverse[k] = 1.0f / density;
    });
  }
  trap_2.Rethrow();
  // Pass 2: forces from x, v and rho of t0, then the integration, written
  // to the particle's place in the state (each k its own i).
  const double bound2 = SquaredMoveBound(params);
  Overstep overstep;
  ExceptionTrap trap_3;
#pragma omp parallel for schedule(dynamic, 256) if (parallel) \
    reduction(+ : candidates, interactions) reduction(first_overstep : overstep)
  for (std::int64_t k = 0; k < n; ++k) {
    trap_3.Run([&] {
      fault::Point("sph.sorted_gather.3");
      const std::size_t rows = kRows * std::size_t{run[k]};
      float a[3] = {0, 0, 0};
      interactions += kernels.force(f, c, static_cast<std::size_t>(k),
                                    row_begin + rows, row_end + rows, a);
      for (std::size_t r = rows; r < rows + kRows; ++r) {
        candidates += row_end[r] - row_begin[r];
      }
      overstep.Note(order[k],
                    IntegrateInto(params, f, static_cast<std::size_t>(k),
                                  {a[0], a[1], a[2]}, order[k], state),
                    bound2);
    });
  }
  trap_3.Rethrow();
  report.candidates = candidates;
  report.interactions = interactions;
  CheckFinished(state, params, overstep, parallel);
}

}  // namespace detail

void SortedGatherStep(State& state, const Params& params, Workspace& workspace,
                      StepReport& report) {
  detail::GatherStep(state, params, workspace, report,
                     detail::ScalarGatherKernels(), false);
}

}  // namespace adj::sph

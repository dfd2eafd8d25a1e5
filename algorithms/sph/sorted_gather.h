#pragma once

// Internal to algorithms/sph: the three passes over particles sorted by
// cell, each particle gathering its own sums over the 9 rows of cells
// around it (no writes to a neighbour), so that particles are independent
// and a parallel loop gives the serial loop's bits. The per-row sums are
// kernels: scalar (sorted_gather) or SIMD lanes (sorted_simd).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/sph/physics.h"
#include "algorithms/sph/sph.h"

namespace adj::sph::detail {

// The fluid in cell order (structure of arrays, n each, every array
// followed by kPadding zeros so that a vector may load past a row's end).
struct SortedFluid {
  std::size_t n = 0;
  float* x;
  float* y;
  float* z;
  float* vx;
  float* vy;
  float* vz;
  float* mass;
  float* density;
  float* pressure;  // k (rho - rho_0)
  float* inverse;   // 1 / rho
};

// The constants a row's sums read, once per step.
struct PairConstants {
  float h;
  float h2;
  float poly6;
  float half_spiky;  // 0.5 x 45 / (pi h^6)
  float drag;        // mu x 45 / (pi h^6)
};

inline constexpr std::size_t kPadding = 64;
inline constexpr int kRows = 9;

struct GatherKernels {
  // sum_j m_j W(r) over the sorted particles j of the rows [begin[r],
  // end[r]), r < kRows, with r^2 < h^2 (k itself included).
  float (*density)(const SortedFluid& fluid, const PairConstants& c,
                   std::size_t k, const std::uint32_t* begin,
                   const std::uint32_t* end);
  // Adds to a[3] the contract's acceleration of k by every j != k of the
  // rows with r^2 < h^2, F_kj / m_k = m_j (push d + drag (v_j - v_k)) /
  // (rho_k rho_j); returns how many such j.
  std::uint32_t (*force)(const SortedFluid& fluid, const PairConstants& c,
                         std::size_t k, const std::uint32_t* begin,
                         const std::uint32_t* end, float a[3]);
};

// The state in cell order (`order`: sorted place -> id) in `storage`:
// `arrays` (>= 10) arrays of n + kPadding floats, the first 10 the
// returned fluid's (x, v and mass copied), the others the caller's (at
// base + a (n + kPadding)). Arrays from `zeroed_from` (>= 7) on are
// zeroed; those before it past mass (density, pressure, inverse, ...)
// hold whatever the storage held, for the caller to write before reading;
// every array's padding is zero. Copied on OpenMP threads when `parallel`.
SortedFluid SortedCopy(const State& state,
                       const std::vector<std::uint32_t>& order,
                       std::size_t arrays, std::size_t zeroed_from,
                       bool parallel, std::vector<float>& storage);

// Integrates sorted particle k (x and v of f) with acceleration a and
// writes it, with its density, to its place i in the state; returns
// Integrate's squared step.
inline double IntegrateInto(const Params& params, const SortedFluid& f,
                            std::size_t k, Vec3 a, std::uint32_t i,
                            State& state) {
  float x = f.x[k], y = f.y[k], z = f.z[k];
  float vx = f.vx[k], vy = f.vy[k], vz = f.vz[k];
  const double step2 = Integrate(params, a, x, y, z, vx, vy, vz);
  state.x.x[i] = x;
  state.x.y[i] = y;
  state.x.z[i] = z;
  state.v.x[i] = vx;
  state.v.y[i] = vy;
  state.v.z[i] = vz;
  state.density[i] = f.density[k];
  return step2;
}

// The constants of the row sums for these parameters.
PairConstants PairConstantsOf(const Params& params);

// The scalar kernels (sorted_gather.cc) and the SIMD ones (Highway, dynamic
// dispatch: sorted_simd.cc).
GatherKernels ScalarGatherKernels();
GatherKernels SimdGatherKernels();

// One three-pass step (densities of t0) with these kernels, the particle
// loops on OpenMP threads when `parallel`: the same bits either way.
void GatherStep(State& state, const Params& params, Workspace& workspace,
                StepReport& report, const GatherKernels& kernels,
                bool parallel);

// sorted_pairs on SIMD lanes (sorted_pairs_simd.cc): each pair once, the
// particles slab by slab, even slabs then odd ones, each parity's slabs on
// OpenMP threads when `parallel`: the same bits either way.
void HalfPairsStep(State& state, const Params& params, Workspace& workspace,
                   StepReport& report, bool parallel);

}  // namespace adj::sph::detail

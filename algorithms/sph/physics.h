#pragma once

// Internal to algorithms/sph: the contract's arithmetic in float, one
// expression per quantity, so that variants visiting neighbours in the same
// order give the same bits, and the step's frame (check, finish).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/sph/sph.h"

#ifdef __CUDACC__
#define ADJ_SPH_HD __host__ __device__
#else
#define ADJ_SPH_HD
#endif

namespace adj::sph::detail {

struct Vec3 {
  float x = 0;
  float y = 0;
  float z = 0;
};

inline float SquaredDistance(float dx, float dy, float dz) {
  return dx * dx + dy * dy + dz * dz;
}

// m_j W(r) for r^2 < h^2.
inline float DensityTerm(const Kernels& kernels, float mass_j, float r2) {
  const float d = kernels.h2 - r2;
  return mass_j * (kernels.poly6 * (d * d * d));
}

// The per-pair values a force term reads of particle j (or i).
struct Sample {
  float x, y, z;
  float vx, vy, vz;
  float density;
  float mass;
};

inline Sample SampleOf(const State& state, std::size_t j, float density) {
  return {state.x.x[j], state.x.y[j], state.x.z[j], state.v.x[j],
          state.v.y[j], state.v.z[j], density,      state.mass[j]};
}

// The contract's acceleration of i by j != i (F_ij / m_i), added to `a`;
// d = x_i - x_j, r2 = |d|^2 < h^2.
inline void AddPairAcceleration(const Kernels& kernels, const Params& params,
                                const Sample& i, const Sample& j, float dx,
                                float dy, float dz, float r2, Vec3& a) {
  const float r = std::sqrt(r2);
  const float s = kernels.h - r;
  const float p_i = params.stiffness * (i.density - params.rest_density);
  const float p_j = params.stiffness * (j.density - params.rest_density);
  const float weight = j.mass / (i.density * j.density);
  const float push =
      r > 0 ? 0.5f * (p_i + p_j) * kernels.spiky * (s * s) / r : 0.0f;
  const float drag = params.viscosity * kernels.viscous * s;
  a.x += weight * (push * dx + drag * (j.vx - i.vx));
  a.y += weight * (push * dy + drag * (j.vy - i.vy));
  a.z += weight * (push * dz + drag * (j.vz - i.vz));
}

// The container's geometry and the integration are compiled for the host
// and, in cuda.cu, for the device: one definition for every variant.
struct Glass {
  double cx, cz, radius;
};

ADJ_SPH_HD inline Glass GlassOf(const Container& box) {
  const double x_extent = double{box.hi[0]} - double{box.lo[0]};
  const double z_extent = double{box.hi[2]} - double{box.lo[2]};
  return {0.5 * (double{box.lo[0]} + double{box.hi[0]}),
          0.5 * (double{box.lo[2]} + double{box.hi[2]}),
          0.5 * (x_extent < z_extent ? x_extent : z_extent)};
}

ADJ_SPH_HD inline bool InsideGlass(const Glass& glass, float x, float z) {
  const double dx = double{x} - glass.cx;
  const double dz = double{z} - glass.cz;
  return dx * dx + dz * dz <= glass.radius * glass.radius;
}

ADJ_SPH_HD inline void ClampAxis(float lo, float hi, float restitution,
                                 float& x, float& v) {
  if (x < lo) {
    x = lo;
    if (v < 0) v = -restitution * v;
  } else if (x > hi) {
    x = hi;
    if (v > 0) v = -restitution * v;
  }
}

// Whether a position is inside the container (the test Check applies).
ADJ_SPH_HD inline bool Inside(const Container& box, float x, float y, float z) {
  if (!(y >= box.lo[1] && y <= box.hi[1])) return false;
  if (box.kind == Container::Kind::kGlass) {
    return InsideGlass(GlassOf(box), x, z);
  }
  return x >= box.lo[0] && x <= box.hi[0] && z >= box.lo[2] && z <= box.hi[2];
}

// Symplectic Euler and the container's clamp for one particle: v += (a +
// gravity) dt, x += v dt, then back onto the wall with the outward velocity
// reflected times restitution. Returns the squared length of the step v dt
// before the wall's response, in double: the blow-up check's measure, since
// the clamp can put a particle thrown any distance back on the wall with its
// velocity zeroed.
ADJ_SPH_HD inline double Integrate(const Params& params, Vec3 a, float& x,
                                   float& y, float& z, float& vx, float& vy,
                                   float& vz) {
  vx += (a.x + params.gravity[0]) * params.dt;
  vy += (a.y + params.gravity[1]) * params.dt;
  vz += (a.z + params.gravity[2]) * params.dt;
  const double dt = params.dt;
  const double step2 =
      (double{vx} * vx + double{vy} * vy + double{vz} * vz) * (dt * dt);
  x += vx * params.dt;
  y += vy * params.dt;
  z += vz * params.dt;
  const Container& box = params.container;
  const float e = box.restitution;
  ClampAxis(box.lo[1], box.hi[1], e, y, vy);
  if (box.kind == Container::Kind::kBox) {
    ClampAxis(box.lo[0], box.hi[0], e, x, vx);
    ClampAxis(box.lo[2], box.hi[2], e, z, vz);
    return step2;
  }
  const Glass glass = GlassOf(box);
  if (InsideGlass(glass, x, z)) return step2;
  const double dx = double{x} - glass.cx;
  const double dz = double{z} - glass.cz;
  const double d = sqrt(dx * dx + dz * dz);
  const double nx = dx / d;
  const double nz = dz / d;
  x = static_cast<float>(glass.cx + glass.radius * nx);
  z = static_cast<float>(glass.cz + glass.radius * nz);
  // Rounding to float may leave the point an ulp outside: step it inwards
  // until the containment test (the one Check applies) holds.
  while (!InsideGlass(glass, x, z)) {
    x = nextafterf(x, static_cast<float>(glass.cx));
    z = nextafterf(z, static_cast<float>(glass.cz));
  }
  const double vn = double{vx} * nx + double{vz} * nz;
  if (vn > 0) {
    vx = static_cast<float>(vx - (1 + e) * vn * nx);
    vz = static_cast<float>(vz - (1 + e) * vn * nz);
  }
  return step2;
}

// The square of the longest step a particle may take: kMaxMovePerStep h.
inline double SquaredMoveBound(const Params& params) {
  const double longest = double{kMaxMovePerStep} * params.h;
  return longest * longest;
}

// The first particle, in the state's order, whose step before the wall's
// response (Integrate's result) was longer than the bound or not finite. A
// step notes each particle; sorted and threaded steps visit them out of
// order, so the lowest index wins, not the first noted.
struct Overstep {
  static constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t particle = kNone;
  double step2 = 0;  // its squared step

  void Note(std::size_t i, double squared_step, double bound2) {
    if (!(squared_step <= bound2) && i < particle) {
      particle = i;
      step2 = squared_step;
    }
  }
  void Merge(const Overstep& other) {
    if (other.particle < particle) *this = other;
  }
};

#if defined(_OPENMP) && !defined(__CUDACC__)
// For the threaded integration loops: each thread notes its own, the
// lowest particle wins, so the same particle is named on every count.
#pragma omp declare reduction(first_overstep:Overstep  \
                              : omp_out.Merge(omp_in)) \
    initializer(omp_priv = Overstep{})
#endif

// The cell of a position: floor((c - lo) / h) per axis, in double.
struct Cell {
  std::int32_t x, y, z;
  friend bool operator==(const Cell&, const Cell&) = default;
};
inline Cell CellOf(const Params& params, float x, float y, float z) {
  const double h = params.h;
  const auto& lo = params.container.lo;
  return {static_cast<std::int32_t>(std::floor((double{x} - lo[0]) / h)),
          static_cast<std::int32_t>(std::floor((double{y} - lo[1]) / h)),
          static_cast<std::int32_t>(std::floor((double{z} - lo[2]) / h))};
}

// Teschner et al. 2003's hash of a cell, the chapter's spatial hash.
inline std::uint32_t TeschnerBucket(std::int32_t x, std::int32_t y,
                                    std::int32_t z, std::uint32_t table_size) {
  const std::uint32_t key = (static_cast<std::uint32_t>(x) * 73856093u) ^
                            (static_cast<std::uint32_t>(y) * 19349663u) ^
                            (static_cast<std::uint32_t>(z) * 83492791u);
  return key % table_size;
}

// Algorithm 1's third pass: Integrate for every particle, reading its
// acceleration at 3 i, 3 i + 1, 3 i + 2; returns the first overstep.
Overstep IntegrateAll(const Params& params,
                      const std::vector<float>& acceleration, State& state);

std::uint32_t TableSize(const Params& params, std::size_t particles);

// Throws Error naming the first particle whose new position, velocity or
// density is not finite or whose step before the wall's response was longer
// than kMaxMovePerStep x h (`overstep`, noted by the integration: a
// blown-up state); the particles scanned on OpenMP threads when `parallel`
// (the same particle named either way).
void CheckFinished(const State& after, const Params& params,
                   const Overstep& overstep, bool parallel = false);

// sph::Check(state, params, reads_density), the particles scanned on
// OpenMP threads when `parallel` (the same error either way).
void CheckState(const State& state, const Params& params, bool reads_density,
                bool parallel);

}  // namespace adj::sph::detail

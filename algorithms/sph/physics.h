#pragma once

// Internal to algorithms/sph: the contract's arithmetic in float, one
// expression per quantity, so that variants visiting neighbours in the same
// order give the same bits, and the step's frame (check, finish).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/sph/sph.h"

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

// Whether a position is inside the container (the test Check applies).
bool Inside(const Container& box, float x, float y, float z);

// Symplectic Euler and the container's clamp for one particle: v += (a +
// gravity) dt, x += v dt, then back onto the wall with the outward velocity
// reflected times restitution.
void Integrate(const Params& params, Vec3 a, float& x, float& y, float& z,
               float& vx, float& vy, float& vz);

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
// acceleration at 3 i, 3 i + 1, 3 i + 2.
void IntegrateAll(const Params& params, const std::vector<float>& acceleration,
                  State& state);

std::uint32_t TableSize(const Params& params, std::size_t particles);

// Throws Error naming the first particle whose new position or velocity is
// not finite or whose step v dt is longer than kMaxMovePerStep x h (a
// blown-up state).
void CheckFinished(const State& after, const Params& params);

}  // namespace adj::sph::detail

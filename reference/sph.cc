#include "reference/sph.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace adj::reference::sph {

namespace {

constexpr double kPi = std::numbers::pi;

double Distance(const Vec& a, const Vec& b) {
  const double dx = a[0] - b[0];
  const double dy = a[1] - b[1];
  const double dz = a[2] - b[2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

double Poly6(double r, double h) {
  const double d = h * h - r * r;
  return 315.0 / (64.0 * kPi * std::pow(h, 9)) * d * d * d;
}

double Pressure(double density, const Constants& c) {
  return c.stiffness * (density - c.rest_density);
}

// The acceleration of a particle at (xi, vi, rho_i) by one at (xj, vj,
// rho_j, m_j) within h, and the magnitude of its terms.
void Pair(const Vec& xi, const Vec& vi, double rho_i, const Vec& xj,
          const Vec& vj, double rho_j, double m_j, const Constants& c,
          Vec& acceleration, double& scale) {
  const double r = Distance(xi, xj);
  const double h = c.h;
  const double coefficient = 45.0 / (kPi * std::pow(h, 6));
  const double weight = m_j / (rho_i * rho_j);
  const double p_i = Pressure(rho_i, c);
  const double p_j = Pressure(rho_j, c);
  // -(p_i + p_j) / 2 grad W_spiky, grad W_spiky = -C (h - r)^2 (xi - xj) / r
  const double push =
      r > 0 ? (p_i + p_j) / 2 * coefficient * (h - r) * (h - r) / r : 0.0;
  const double drag = c.viscosity * coefficient * (h - r);
  double dv = 0;
  for (int k = 0; k < 3; ++k) {
    acceleration[k] +=
        weight * (push * (xi[k] - xj[k]) + drag * (vj[k] - vi[k]));
    dv += (vj[k] - vi[k]) * (vj[k] - vi[k]);
  }
  scale += weight *
           ((std::abs(p_i) + std::abs(p_j) + c.stiffness * (rho_i + rho_j)) /
                2 * coefficient * (h - r) * (h - r) +
            std::abs(drag) * std::sqrt(dv));
}

int CellOf(double x, double lo, double h) {
  return static_cast<int>(std::floor((x - lo) / h));
}

bool SameWindow(const Vec& a, const Vec& b, const Constants& c) {
  for (int k = 0; k < 3; ++k) {
    const int ca = CellOf(a[k], c.walls.lo[k], c.h);
    const int cb = CellOf(b[k], c.walls.lo[k], c.h);
    if (ca - cb > 1 || cb - ca > 1) return false;
  }
  return true;
}

// One wall along a direction: the position's coordinate along the outward
// normal is `s`, the wall is at `limit`; hit when s > limit, the decision
// reversed when `reverse` and |s - limit| <= slack.
bool Hits(double s, double limit, bool reverse, double slack, bool& near) {
  const bool close = std::abs(s - limit) <= slack;
  near = near || close;
  return (s > limit) != (reverse && close);
}

// The walls acting on a new position and velocity.
void Clamp(const Walls& walls, bool reverse, double slack, Vec& x, Vec& v,
           bool& near) {
  const double e = walls.restitution;
  const int first_axis = walls.glass ? 1 : 0;
  for (int k = 0; k < 3; ++k) {
    if (k < first_axis || (walls.glass && k == 2)) continue;
    if (Hits(walls.lo[k] - x[k], 0, reverse, slack, near)) {
      x[k] = walls.lo[k];
      if (v[k] < 0) v[k] = -e * v[k];
    } else if (Hits(x[k] - walls.hi[k], 0, reverse, slack, near)) {
      x[k] = walls.hi[k];
      if (v[k] > 0) v[k] = -e * v[k];
    }
  }
  if (!walls.glass) return;
  const double cx = (walls.lo[0] + walls.hi[0]) / 2;
  const double cz = (walls.lo[2] + walls.hi[2]) / 2;
  const double radius =
      std::min(walls.hi[0] - walls.lo[0], walls.hi[2] - walls.lo[2]) / 2;
  const double dx = x[0] - cx;
  const double dz = x[2] - cz;
  const double d = std::sqrt(dx * dx + dz * dz);
  if (!Hits(d, radius, reverse, slack, near) || d == 0) return;
  const double nx = dx / d;
  const double nz = dz / d;
  x[0] = cx + radius * nx;
  x[2] = cz + radius * nz;
  const double outward = v[0] * nx + v[2] * nz;
  if (outward > 0) {
    v[0] -= (1 + e) * outward * nx;
    v[2] -= (1 + e) * outward * nz;
  }
}

}  // namespace

std::vector<double> Densities(const Fluid& fluid, const Constants& c) {
  const std::size_t n = fluid.x.size();
  std::vector<double> density(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const double r = Distance(fluid.x[i], fluid.x[j]);
      if (r < c.h) density[i] += fluid.mass[j] * Poly6(r, c.h);
    }
  }
  return density;
}

Outcome Step(const Fluid& before, const Constants& c, Reads reads,
             double wall_slack) {
  const std::size_t n = before.x.size();
  const std::vector<double> start = Densities(before, c);
  Outcome out;
  out.after = before;
  out.alternative_x.resize(n);
  out.alternative_v.resize(n);
  out.near_wall.assign(n, false);
  out.acceleration_scale.assign(n, 0.0);
  const double gravity =
      std::sqrt(c.gravity[0] * c.gravity[0] + c.gravity[1] * c.gravity[1] +
                c.gravity[2] * c.gravity[2]);
  // What particle j looks like to particle i.
  Fluid& moving = out.after;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec& xi = before.x[i];
    const Vec& vi = before.v[i];
    const double rho_i = reads == Reads::kStart ? start[i] : before.density[i];
    Vec acceleration{0, 0, 0};
    double scale = gravity;
    double density = before.mass[i] * Poly6(0, c.h);
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const bool moved = reads == Reads::kInPlace && j < i;
      const Vec& xj = moved ? moving.x[j] : before.x[j];
      const Vec& vj = moved ? moving.v[j] : before.v[j];
      double rho_j = before.density[j];
      if (reads == Reads::kStart) rho_j = start[j];
      if (moved) rho_j = moving.density[j];
      const double r = Distance(xi, xj);
      if (r >= c.h) continue;
      if (moved && !SameWindow(xi, before.x[j], c)) continue;
      density += before.mass[j] * Poly6(r, c.h);
      Pair(xi, vi, rho_i, xj, vj, rho_j, before.mass[j], c, acceleration,
           scale);
      ++out.interactions;
    }
    Vec v = vi;
    Vec x = xi;
    for (int k = 0; k < 3; ++k) {
      v[k] += (acceleration[k] + c.gravity[k]) * c.dt;
      x[k] += v[k] * c.dt;
    }
    Vec alternative_x = x;
    Vec alternative_v = v;
    bool near = false;
    Clamp(c.walls, false, wall_slack, x, v, near);
    Clamp(c.walls, true, wall_slack, alternative_x, alternative_v, near);
    moving.x[i] = x;
    moving.v[i] = v;
    // Algorithm 2's density of i sums the fluid as it finds it.
    moving.density[i] = reads == Reads::kInPlace ? density : start[i];
    out.alternative_x[i] = alternative_x;
    out.alternative_v[i] = alternative_v;
    out.near_wall[i] = near;
    out.acceleration_scale[i] = scale;
  }
  return out;
}

}  // namespace adj::reference::sph

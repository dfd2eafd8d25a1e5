#include "checks/sph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

#include "reference/sph.h"

namespace adj::checks::sph {

namespace ref = adj::reference::sph;

Definition DefinitionOf(const adj::sph::Variant& variant) {
  switch (variant.traits.update) {
    case adj::sph::Update::kThreePass:
      return Definition::kThreePass;
    case adj::sph::Update::kCollapsed:
      return Definition::kCollapsed;
    case adj::sph::Update::kInPlace:
      return Definition::kInPlace;
    case adj::sph::Update::kUnset:
      break;
  }
  throw std::invalid_argument("checks::sph: " + std::string(variant.name) +
                              " names no update in its Traits");
}

std::string_view DefinitionName(Definition definition) {
  switch (definition) {
    case Definition::kThreePass:
      return "three passes (densities of t0)";
    case Definition::kCollapsed:
      return "collapsed (densities of t-1)";
    case Definition::kInPlace:
      return "collapsed in place";
  }
  return "?";
}

namespace {

ref::Fluid FluidOf(const adj::sph::State& state) {
  ref::Fluid fluid;
  const std::size_t n = state.size();
  fluid.x.resize(n);
  fluid.v.resize(n);
  fluid.density.resize(n);
  fluid.mass.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    fluid.x[i] = {state.x.x[i], state.x.y[i], state.x.z[i]};
    fluid.v[i] = {state.v.x[i], state.v.y[i], state.v.z[i]};
    fluid.density[i] = state.density[i];
    fluid.mass[i] = state.mass[i];
  }
  return fluid;
}

ref::Reads ReadsOf(Definition definition) {
  return definition == Definition::kThreePass   ? ref::Reads::kStart
         : definition == Definition::kCollapsed ? ref::Reads::kPrevious
                                                : ref::Reads::kInPlace;
}

ref::Constants ConstantsOf(const adj::sph::Params& params) {
  ref::Constants c;
  c.h = params.h;
  c.rest_density = params.rest_density;
  c.stiffness = params.stiffness;
  c.viscosity = params.viscosity;
  c.dt = params.dt;
  for (int k = 0; k < 3; ++k) {
    c.gravity[k] = params.gravity[k];
    c.walls.lo[k] = params.container.lo[k];
    c.walls.hi[k] = params.container.hi[k];
  }
  c.walls.glass = params.container.kind == adj::sph::Container::Kind::kGlass;
  c.walls.restitution = params.container.restitution;
  return c;
}

double Norm(const ref::Vec& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

double Gap(const ref::Vec& expected, float x, float y, float z) {
  return Norm({x - expected[0], y - expected[1], z - expected[2]});
}

double Largest(const ref::Vec& v) {
  return std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])});
}

std::string Show(const ref::Vec& v) {
  std::ostringstream out;
  out.precision(9);
  out << "(" << v[0] << ", " << v[1] << ", " << v[2] << ")";
  return out.str();
}

}  // namespace

Accuracy Compare(const adj::sph::State& run, const adj::sph::State& reference,
                 const adj::sph::Params& params) {
  Accuracy accuracy;
  const std::size_t n = std::min(run.size(), reference.size());
  if (n == 0) return accuracy;
  double density_squares = 0;
  double position_squares = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double density =
        std::abs(double{run.density[i]} - reference.density[i]) /
        params.rest_density;
    density_squares += density * density;
    accuracy.density_max_percent =
        std::max(accuracy.density_max_percent, 100 * density);
    const double gap = Norm({double{run.x.x[i]} - reference.x.x[i],
                             double{run.x.y[i]} - reference.x.y[i],
                             double{run.x.z[i]} - reference.x.z[i]});
    position_squares += gap * gap;
    const double speed = Norm({run.v.x[i], run.v.y[i], run.v.z[i]});
    accuracy.kinetic_energy += 0.5 * run.mass[i] * speed * speed;
    accuracy.max_speed = std::max(accuracy.max_speed, speed);
  }
  const double count = static_cast<double>(n);
  accuracy.density_rms_percent = 100 * std::sqrt(density_squares / count);
  accuracy.position_rms_h = std::sqrt(position_squares / count) / params.h;
  return accuracy;
}

double SurgeFront(const adj::sph::State& state,
                  const adj::sph::Params& params) {
  const double floor = params.container.lo[1];
  double front = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (double{state.x.y[i]} - floor >= params.h) continue;
    front = std::max(front, double{state.x.x[i]} - params.container.lo[0]);
  }
  return front;
}

namespace {

// How far (x, z) lies inside the container's side walls (negative outside).
double SideClearance(const adj::sph::Container& box, double x, double z) {
  if (box.kind == adj::sph::Container::Kind::kGlass) {
    const double cx = 0.5 * (double{box.lo[0]} + box.hi[0]);
    const double cz = 0.5 * (double{box.lo[2]} + box.hi[2]);
    const double radius = 0.5 * std::min(double{box.hi[0]} - box.lo[0],
                                         double{box.hi[2]} - box.lo[2]);
    return radius - std::hypot(x - cx, z - cz);
  }
  return std::min({x - box.lo[0], box.hi[0] - x, z - box.lo[2], box.hi[2] - z});
}

double CrossSection(const adj::sph::Container& box) {
  const double x_extent = double{box.hi[0]} - box.lo[0];
  const double z_extent = double{box.hi[2]} - box.lo[2];
  if (box.kind == adj::sph::Container::Kind::kGlass) {
    const double radius = 0.5 * std::min(x_extent, z_extent);
    return std::numbers::pi * radius * radius;
  }
  return x_extent * z_extent;
}

// sum_j m_j / rho_j (y_j - y_i) d/dy_i W_spiky(x_i - x_j) over every j
// within h, with the contract's spiky gradient in double.
double GradientOfHeight(const adj::sph::State& state, double h, std::size_t i) {
  const double spiky = 45 / (std::numbers::pi * std::pow(h, 6));
  double sum = 0;
  for (std::size_t j = 0; j < state.size(); ++j) {
    const double dx = double{state.x.x[i]} - state.x.x[j];
    const double dy = double{state.x.y[i]} - state.x.y[j];
    const double dz = double{state.x.z[i]} - state.x.z[j];
    const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (r == 0 || r >= h) continue;
    const double gradient_y = -spiky * (h - r) * (h - r) * dy / r;
    sum += double{state.mass[j]} / state.density[j] * (-dy) * gradient_y;
  }
  return sum;
}

}  // namespace

Hydrostatic HydrostaticProfile(const adj::sph::State& state,
                               const adj::sph::Params& params, float spacing) {
  Hydrostatic profile;
  const std::size_t n = state.size();
  if (n == 0) return profile;
  const double g = std::sqrt(double{params.gravity[0]} * params.gravity[0] +
                             double{params.gravity[1]} * params.gravity[1] +
                             double{params.gravity[2]} * params.gravity[2]);
  double top = state.x.y[0];
  for (std::size_t i = 0; i < n; ++i) top = std::max<double>(top, state.x.y[i]);
  const double surface = top + 0.5 * spacing;
  profile.column_height = surface - params.container.lo[1];
  const double h = params.h;
  const auto bins =
      static_cast<std::size_t>(std::ceil(profile.column_height / h));
  std::vector<double> depth_sum(bins, 0), pressure_sum(bins, 0);
  std::vector<std::size_t> count(bins, 0);
  const adj::sph::Container& box = params.container;
  const auto pressure_of = [&](std::size_t i) {
    return double{params.stiffness} *
           (double{state.density[i]} - params.rest_density);
  };
  double mass = 0;
  std::size_t on_boundary = 0;
  // The least-squares line of p / 2 against height over the deep interior.
  double sum_y = 0, sum_p = 0, sum_yy = 0, sum_yp = 0, deep = 0;
  double normalisation_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mass += state.mass[i];
    const double height = double{state.x.y[i]} - box.lo[1];
    const double clearance = SideClearance(box, state.x.x[i], state.x.z[i]);
    if (height <= 1e-4 * h || clearance <= 1e-4 * h) ++on_boundary;
    if (height < h || clearance < h) continue;
    const double depth = surface - state.x.y[i];
    const auto bin = std::min(bins - 1, static_cast<std::size_t>(depth / h));
    depth_sum[bin] += depth;
    pressure_sum[bin] += pressure_of(i);
    ++count[bin];
    if (height < 2 * h || clearance < 2 * h || top - state.x.y[i] < 2 * h) {
      continue;
    }
    const double half = pressure_of(i) / 2;
    sum_y += height;
    sum_p += half;
    sum_yy += height * height;
    sum_yp += height * half;
    ++deep;
    normalisation_sum += GradientOfHeight(state, h, i);
  }
  profile.boundary_fraction =
      static_cast<double>(on_boundary) / static_cast<double>(n);
  profile.volume_height =
      mass / (double{params.rest_density} * CrossSection(box));
  const double spread = deep * sum_yy - sum_y * sum_y;
  if (deep >= 2 && spread > 0 && g > 0) {
    const double slope = (deep * sum_yp - sum_y * sum_p) / spread;
    profile.slope_ratio = -slope / (double{params.rest_density} * g);
  }
  if (deep > 0) profile.gradient_normalisation = normalisation_sum / deep;
  const double floor_pressure = params.rest_density * g * profile.column_height;
  for (std::size_t b = 0; b < bins; ++b) {
    if (count[b] == 0) continue;
    const double depth = depth_sum[b] / static_cast<double>(count[b]);
    const double pressure = pressure_sum[b] / static_cast<double>(count[b]);
    const double analytic = params.rest_density * g * depth;
    profile.depth.push_back(depth);
    profile.pressure.push_back(pressure);
    profile.analytic.push_back(analytic);
    if (b >= 1 && floor_pressure > 0) {
      profile.error_percent =
          std::max(profile.error_percent,
                   100 * std::abs(pressure - analytic) / floor_pressure);
      profile.half_error_percent =
          std::max(profile.half_error_percent,
                   100 * std::abs(pressure / 2 - analytic) / floor_pressure);
    }
  }
  return profile;
}

std::vector<double> OracleDensities(const adj::sph::State& state,
                                    const adj::sph::Params& params) {
  return ref::Densities(FluidOf(state), ConstantsOf(params));
}

adj::sph::State ExpectedOf(const adj::sph::State& before,
                           const adj::sph::Params& params,
                           Definition definition) {
  const ref::Outcome oracle =
      ref::Step(FluidOf(before), ConstantsOf(params), ReadsOf(definition), 0);
  adj::sph::State after = before;
  for (std::size_t i = 0; i < after.size(); ++i) {
    const ref::Vec& x = oracle.after.x[i];
    const ref::Vec& v = oracle.after.v[i];
    after.x.x[i] = static_cast<float>(x[0]);
    after.x.y[i] = static_cast<float>(x[1]);
    after.x.z[i] = static_cast<float>(x[2]);
    after.v.x[i] = static_cast<float>(v[0]);
    after.v.y[i] = static_cast<float>(v[1]);
    after.v.z[i] = static_cast<float>(v[2]);
    after.density[i] = static_cast<float>(oracle.after.density[i]);
  }
  return after;
}

std::string FirstDifference(const adj::sph::State& before,
                            const adj::sph::Params& params,
                            Definition definition, const adj::sph::State& after,
                            double tolerance) {
  const std::size_t n = before.size();
  if (after.size() != n || after.x.y.size() != n || after.x.z.size() != n ||
      after.v.x.size() != n || after.v.y.size() != n || after.v.z.size() != n ||
      after.density.size() != n) {
    return "the state after the step has " + std::to_string(after.size()) +
           " particles (or arrays of other lengths), before " +
           std::to_string(n);
  }
  if (after.mass != before.mass) return "the step changed a mass";
  const ref::Reads reads = ReadsOf(definition);
  const ref::Fluid fluid = FluidOf(before);
  const double dt = params.dt;
  // The widest position bound any particle gets: the wall slack.
  double slack = 0;
  const ref::Outcome first = ref::Step(fluid, ConstantsOf(params), reads, 0);
  std::vector<double> position_bound(n);
  const double eps = std::numeric_limits<float>::epsilon();
  for (std::size_t i = 0; i < n; ++i) {
    const double speed = Norm(fluid.v[i]);
    position_bound[i] =
        tolerance * dt * (speed + dt * first.acceleration_scale[i]) +
        8 * eps * Largest(first.after.x[i]);
    slack = std::max(slack, position_bound[i]);
  }
  const ref::Outcome oracle =
      ref::Step(fluid, ConstantsOf(params), reads, slack);
  for (std::size_t i = 0; i < n; ++i) {
    const double rho = oracle.after.density[i];
    if (!(std::abs(after.density[i] - rho) <= tolerance * rho)) {
      std::ostringstream out;
      out.precision(9);
      out << "particle " << i << ": density " << after.density[i]
          << ", the oracle's " << rho << " (" << DefinitionName(definition)
          << ")";
      return out.str();
    }
    const double speed = Norm(fluid.v[i]);
    const auto fits = [&](const ref::Vec& x, const ref::Vec& v) {
      const double velocity_bound =
          tolerance * (speed + dt * oracle.acceleration_scale[i]) +
          4 * eps * Norm(v);
      return Gap(v, after.v.x[i], after.v.y[i], after.v.z[i]) <=
                 velocity_bound &&
             Gap(x, after.x.x[i], after.x.y[i], after.x.z[i]) <=
                 position_bound[i] + 8 * eps * Largest(x);
    };
    if (fits(oracle.after.x[i], oracle.after.v[i])) continue;
    if (oracle.near_wall[i] &&
        fits(oracle.alternative_x[i], oracle.alternative_v[i])) {
      continue;
    }
    return "particle " + std::to_string(i) + ": x " +
           Show({after.x.x[i], after.x.y[i], after.x.z[i]}) + ", v " +
           Show({after.v.x[i], after.v.y[i], after.v.z[i]}) +
           "; the oracle's x " + Show(oracle.after.x[i]) + ", v " +
           Show(oracle.after.v[i]) + " (" +
           std::string(DefinitionName(definition)) + ", acceleration scale " +
           std::to_string(oracle.acceleration_scale[i]) + ")";
  }
  return "";
}

}  // namespace adj::checks::sph

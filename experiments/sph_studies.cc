#include "experiments/sph_studies.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <string>

#include "scenes/fluids.h"

namespace adj::sph::studies {
namespace {

constexpr std::size_t kOracleParticles = 8000;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// One step of `variant`, its time added to `seconds`; a blown-up state's
// Error names the step (1-based).
void TimedStep(const Variant& variant, State& state, const Params& params,
               Workspace& workspace, int step, double& seconds) {
  StepReport report;
  const auto start = std::chrono::steady_clock::now();
  try {
    variant.run(state, params, workspace, report);
  } catch (const Error& error) {
    throw Error("step " + std::to_string(step) + ": " + error.what());
  }
  seconds += SecondsSince(start);
}

}  // namespace

Fluid MakeFluid(const std::string& scene, std::size_t particles) {
  const scenes::FluidScene fluid =
      scene == "glass" ? scenes::GlassAtRest(particles, kSpacing)
                       : scenes::DamBreak(particles, kSpacing);
  return LatticeFluid(fluid.positions, fluid.spacing, fluid.height,
                      ContainerOf(fluid.glass, fluid.lo, fluid.hi));
}

std::string OracleVerdict(const Variant& variant, const std::string& scene) {
  const Fluid fluid = MakeFluid(scene, kOracleParticles);
  State state = fluid.state;
  Workspace workspace;
  StepReport report;
  try {
    variant.run(state, fluid.params, workspace, report);
  } catch (const std::exception& error) {
    return error.what();
  }
  return checks::sph::FirstDifference(
      fluid.state, fluid.params, checks::sph::DefinitionOf(variant), state);
}

Hydrostatic RunHydrostatic(const Variant& variant, std::size_t particles,
                           int steps) {
  const Fluid fluid = MakeFluid("glass", particles);
  State state = fluid.state;
  Workspace workspace;
  double seconds = 0;
  for (int s = 1; s <= steps; ++s) {
    TimedStep(variant, state, fluid.params, workspace, s, seconds);
  }
  Hydrostatic result;
  result.profile =
      checks::sph::HydrostaticProfile(state, fluid.params, kSpacing);
  result.still = checks::sph::Compare(state, state, fluid.params);
  result.seconds_per_step = steps > 0 ? seconds / steps : 0;
  return result;
}

bool Stable(const Variant& variant, const Fluid& fluid, double k, double dt,
            int steps) {
  Params params = fluid.params;
  params.stiffness = static_cast<float>(k);
  params.dt = static_cast<float>(dt);
  State state = fluid.state;
  Workspace workspace;
  StepReport report;
  try {
    Prepare(state, params);
    for (int s = 0; s < steps; ++s) {
      variant.run(state, params, workspace, report);
    }
  } catch (const Error&) {
    return false;
  }
  double speed = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    speed += std::hypot(state.v.x[i], state.v.y[i], state.v.z[i]);
  }
  return speed / static_cast<double>(std::max<std::size_t>(state.size(), 1)) <
         0.5;
}

Stability RunStability(const Variant& variant, std::size_t particles,
                       double cfl, int steps) {
  const Fluid fluid = MakeFluid("glass", particles);
  Stability result;
  result.k0 = fluid.params.stiffness;
  result.dt = cfl * fluid.params.h / std::sqrt(result.k0);
  result.viscosity = fluid.params.viscosity;
  double stable = result.k0 / 64;
  double unstable = result.k0 * 64;
  if (!Stable(variant, fluid, stable, result.dt, steps)) {
    unstable = stable;
    stable = 0;
  } else if (Stable(variant, fluid, unstable, result.dt, steps)) {
    stable = unstable;
    unstable = 0;
  } else {
    while (unstable / stable > 1.05) {
      const double middle = std::sqrt(stable * unstable);
      (Stable(variant, fluid, middle, result.dt, steps) ? stable : unstable) =
          middle;
      ++result.trials;
    }
  }
  result.largest_stable_k = stable;
  result.smallest_unstable_k = unstable;
  return result;
}

Surge RunSurge(const Variant& variant, std::size_t particles, double alpha,
               int max_steps) {
  const Fluid fluid = MakeFluid("dam_break", particles);
  const double width = scenes::DamBreak(particles, kSpacing).width;
  Params params = fluid.params;
  const double sound = std::sqrt(double{params.stiffness});
  params.viscosity =
      static_cast<float>(params.rest_density * alpha * params.h * sound);
  const double g = std::abs(double{params.gravity[1]});
  const double time_scale = std::sqrt(2 * g / width);  // T per second
  Surge result;
  result.column_width = width;
  result.column_height = 2 * width;
  State state = fluid.state;
  Workspace workspace;
  double seconds = 0;
  while (static_cast<int>(result.z.size()) < kSurgeSamples &&
         (max_steps == 0 || result.steps < max_steps)) {
    ++result.steps;
    TimedStep(variant, state, params, workspace, result.steps, seconds);
    const double t = result.steps * double{params.dt} * time_scale;
    while (static_cast<int>(result.z.size()) < kSurgeSamples &&
           t >= static_cast<double>(result.z.size() + 1) * kSurgeSampleT) {
      result.t.push_back(static_cast<double>(result.z.size() + 1) *
                         kSurgeSampleT);
      result.z.push_back(checks::sph::SurgeFront(state, params) / width);
    }
  }
  result.seconds_per_step = result.steps > 0 ? seconds / result.steps : 0;
  return result;
}

}  // namespace adj::sph::studies

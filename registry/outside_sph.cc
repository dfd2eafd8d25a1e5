// sph's outside check: one step of a fluid computed anywhere, from the
// state before to the state after, against the double-precision oracle
// through checks::sph (within its float tolerance), for the step the
// caller says it computes.
#include <string>
#include <vector>

#include "algorithms/sph/sph.h"
#include "checks/sph.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {
namespace {

const Array& Need(const Arrays& arrays, std::string_view name,
                  std::string_view where) {
  const Array* array = Find(arrays, name);
  if (array == nullptr) {
    throw CheckInputError("sph: the " + std::string(where) + " " +
                          std::string(name) + " is required");
  }
  return *array;
}

std::vector<float> FloatsOf(const Array& array, std::string_view name,
                            std::size_t count) {
  if (array.shape.size() != 1 || array.size() != count) {
    throw CheckInputError(
        std::string(name) + ": " + std::to_string(array.size()) +
        " entries, expected (" + std::to_string(count) + ",)");
  }
  std::vector<float> values(count);
  for (std::size_t k = 0; k < count; ++k) {
    values[k] = static_cast<float>(array.integral
                                       ? static_cast<double>(array.integers[k])
                                       : array.reals[k]);
  }
  return values;
}

// x, v and density (and mass, for the state before) as a State.
sph::State StateOf(const Arrays& arrays, std::string_view where,
                   const std::vector<float>* mass) {
  sph::State state;
  state.x = PointsOf(Need(arrays, "x", where), "x");
  state.v = PointsOf(Need(arrays, "v", where), "v");
  if (state.v.size() != state.x.size()) {
    throw CheckInputError("v: " + std::to_string(state.v.size()) +
                          " particles, x has " +
                          std::to_string(state.x.size()));
  }
  state.density =
      FloatsOf(Need(arrays, "density", where), "density", state.x.size());
  state.mass = mass != nullptr ? *mass
                               : FloatsOf(Need(arrays, "mass", where), "mass",
                                          state.x.size());
  return state;
}

}  // namespace

namespace {

OutsideVerdict CheckSphOutput(const Arrays& inputs, const Arrays& outputs,
                              const Parameters& parameters) {
  const sph::State before = StateOf(inputs, "input", nullptr);
  const sph::State after = StateOf(outputs, "output", &before.mass);
  if (after.size() != before.size()) {
    throw CheckInputError("the output has " + std::to_string(after.size()) +
                          " particles, the input " +
                          std::to_string(before.size()));
  }
  sph::Params params;
  params.h = static_cast<float>(ParameterOf(parameters, "h"));
  params.rest_density =
      static_cast<float>(ParameterOf(parameters, "rest_density"));
  params.stiffness = static_cast<float>(ParameterOf(parameters, "stiffness"));
  params.viscosity = static_cast<float>(ParameterOf(parameters, "viscosity"));
  params.dt = static_cast<float>(ParameterOf(parameters, "dt"));
  const std::vector<float> lo = FloatsOf(Need(inputs, "lo", "input"), "lo", 3);
  const std::vector<float> hi = FloatsOf(Need(inputs, "hi", "input"), "hi", 3);
  for (int axis = 0; axis < 3; ++axis) {
    params.container.lo[axis] = lo[axis];
    params.container.hi[axis] = hi[axis];
  }
  if (const Array* gravity = Find(inputs, "gravity")) {
    const std::vector<float> g = FloatsOf(*gravity, "gravity", 3);
    for (int axis = 0; axis < 3; ++axis) params.gravity[axis] = g[axis];
  }
  params.container.kind = WholeParameterOf(parameters, "glass", 0, 1) == 1
                              ? sph::Container::Kind::kGlass
                              : sph::Container::Kind::kBox;
  if (parameters.contains("restitution")) {
    params.container.restitution =
        static_cast<float>(ParameterOf(parameters, "restitution"));
  }
  // 0: three passes (densities of t0), 1: collapsed (densities of t-1),
  // 2: collapsed in place (sph.h says what each reads).
  const std::uint64_t update = WholeParameterOf(parameters, "update", 0, 2);
  const checks::sph::Definition definition =
      update == 0   ? checks::sph::Definition::kThreePass
      : update == 1 ? checks::sph::Definition::kCollapsed
                    : checks::sph::Definition::kInPlace;
  sph::Check(before, params, /*reads_density=*/update != 0);
  OutsideVerdict verdict;
  verdict.scope = "the double-precision oracle's " +
                  std::string(checks::sph::DefinitionName(definition)) +
                  " step of all " + std::to_string(before.size()) +
                  " particles, within relative " +
                  std::to_string(checks::sph::kTolerance);
  verdict.difference =
      checks::sph::FirstDifference(before, params, definition, after);
  verdict.statistics = {{"particles", static_cast<double>(before.size())}};
  return verdict;
}

}  // namespace

OutsideCheck SphOutsideCheck() {
  return {"sph",
          "the state before one step, x (N, 3), v (N, 3), density (N,) (of "
          "t-1: what a collapsed step reads) and mass (N,); the container lo "
          "(3,) and hi (3,), optionally gravity (3,) (default 0, -9.81, 0); "
          "the parameters h, rest_density, stiffness, viscosity, dt, glass "
          "(1: the glass inscribed in lo..hi, 0: the box), optionally "
          "restitution (default 0), and update (0: three passes, 1: collapsed, "
          "2: collapsed in place)",
          "the state after the step: x (N, 3), v (N, 3) and density (N,) (the "
          "densities the step computed)",
          {"x", "v", "density", "mass", "lo", "hi", "gravity"},
          {"x", "v", "density"},
          {"h", "rest_density", "stiffness", "viscosity", "dt", "glass",
           "restitution", "update"},
          "x",
          "x",
          &CheckSphOutput};
}

}  // namespace adj::registry

// sph's exported cases: one step of fluids that test a neighbour search and
// the walls: a column at rest in a glass (particles half a spacing from the
// curved wall and the floor), a dam break released at t = 0, in each of
// the three step definitions, and a moving fluid whose particles cross the
// walls within the step. Expected: the double-precision oracle's step
// rounded to float (checks::sph::ExpectedOf); an implementation agrees
// within the check's tolerance, not bit for bit.
#include <string>
#include <vector>

#include "algorithms/sph/sph.h"
#include "checks/sph.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"
#include "scenes/fluids.h"

namespace adj::registry {
namespace {

Array PointsArray(const Points& points) {
  std::vector<double> values;
  for (std::size_t i = 0; i < points.size(); ++i) {
    values.insert(values.end(), {points.x[i], points.y[i], points.z[i]});
  }
  return RealArray({points.size(), 3}, std::move(values));
}

Array Column(const std::vector<float>& values) {
  return RealArray({values.size()}, {values.begin(), values.end()});
}

Array Triple(const float* values) {
  return RealArray({3}, {values[0], values[1], values[2]});
}

CorpusCase StepCase(std::string name, std::string purpose,
                    const sph::Fluid& fluid,
                    checks::sph::Definition definition) {
  const sph::State& before = fluid.state;
  const sph::Params& params = fluid.params;
  CorpusCase made;
  made.name = std::move(name);
  made.purpose = std::move(purpose);
  made.inputs["x"] = PointsArray(before.x);
  made.inputs["v"] = PointsArray(before.v);
  made.inputs["density"] = Column(before.density);
  made.inputs["mass"] = Column(before.mass);
  made.inputs["lo"] = Triple(params.container.lo);
  made.inputs["hi"] = Triple(params.container.hi);
  made.inputs["gravity"] = Triple(params.gravity);
  made.inputs["h"] = RealArray({}, {params.h});
  made.inputs["rest_density"] = RealArray({}, {params.rest_density});
  made.inputs["stiffness"] = RealArray({}, {params.stiffness});
  made.inputs["viscosity"] = RealArray({}, {params.viscosity});
  made.inputs["dt"] = RealArray({}, {params.dt});
  made.inputs["glass"] =
      ScalarArray(params.container.kind == sph::Container::Kind::kGlass);
  made.inputs["restitution"] = RealArray({}, {params.container.restitution});
  made.inputs["update"] =
      ScalarArray(definition == checks::sph::Definition::kThreePass   ? 0
                  : definition == checks::sph::Definition::kCollapsed ? 1
                                                                      : 2);
  const sph::State after = checks::sph::ExpectedOf(before, params, definition);
  made.expected["x"] = PointsArray(after.x);
  made.expected["v"] = PointsArray(after.v);
  made.expected["density"] = Column(after.density);
  return made;
}

sph::Fluid FluidOf(const scenes::FluidScene& scene) {
  return sph::LatticeFluid(scene.positions, scene.spacing, scene.height,
                           sph::ContainerOf(scene.glass, scene.lo, scene.hi));
}

}  // namespace

std::vector<CorpusCase> SphCorpus() {
  std::vector<CorpusCase> cases;
  const sph::Fluid glass = FluidOf(scenes::GlassAtRest(500, 0.01f));
  const sph::Fluid dam = FluidOf(scenes::DamBreak(500, 0.01f));
  cases.push_back(StepCase(
      "glass_three_pass",
      "500 particles at rest in a glass, half a spacing inside its floor and "
      "curved wall: the three-pass step (update 0)",
      glass, checks::sph::Definition::kThreePass));
  cases.push_back(StepCase(
      "glass_collapsed",
      "the glass, collapsed step (update 1): forces read the densities of "
      "t-1 given as input",
      glass, checks::sph::Definition::kCollapsed));
  cases.push_back(StepCase(
      "dam_in_place",
      "a dam break's column at its release, collapsed in place (update 2): "
      "particle i sees particles 0..i-1 already moved",
      dam, checks::sph::Definition::kInPlace));
  // Two lattice spacings a step towards x = lo, bouncing back at half the
  // speed.
  sph::Fluid thrown = dam;
  thrown.params.container.restitution = 0.5f;
  for (std::size_t i = 0; i < thrown.state.size(); ++i) {
    thrown.state.v.x[i] = -2 * 0.01f / thrown.params.dt;
  }
  cases.push_back(StepCase(
      "thrown_at_the_wall",
      "the dam's column moving at the wall x = lo fast enough to cross it "
      "within the step: the clamp and the restitution decide",
      thrown, checks::sph::Definition::kThreePass));
  return cases;
}

}  // namespace adj::registry

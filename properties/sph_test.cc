#include "algorithms/sph/sph.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/common/cuda.h"
#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"
#include "algorithms/sph/cell_sort.h"
#include "algorithms/sph/device_state.h"
#include "algorithms/sph/variants.h"
#include "checks/sph.h"
#include "properties/variant_cases.h"

namespace adj::sph {
namespace {

using checks::sph::Definition;
using checks::sph::DefinitionOf;

// A fluid of `n` particles spaced about h / 2 apart (some 30 neighbours
// each) in a box or glass of 4 to 8 h, with masses near rest_density
// (h / 2)^3 (all equal when `equal_masses`), velocities up to 1, densities
// of t-1 the oracle's within +-20 %, and a quarter of the particles on or
// next to a wall moving outwards.
struct Scene {
  State state;
  Params params;
};

Scene RandomScene(std::uint32_t seed, std::size_t n, bool equal_masses) {
  std::mt19937 random(seed);
  const auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(random);
  };
  Scene scene;
  Params& params = scene.params;
  params.h = uniform(0.05f, 0.2f);
  params.rest_density = 1000;
  params.stiffness = uniform(0, 30);
  params.viscosity = uniform(0, 2);
  params.dt = uniform(1e-4f, 2e-3f);
  params.gravity[0] = uniform(-1, 1);
  params.gravity[1] = uniform(-10, 0);
  params.gravity[2] = uniform(-1, 1);
  Container& box = params.container;
  box.kind = random() % 2 ? Container::Kind::kGlass : Container::Kind::kBox;
  box.restitution = uniform(0, 1);
  // About n particles at spacing h / 2: an edge of cbrt(n) h / 2, at least
  // 4 h.
  const float edge =
      std::max(4 * params.h, std::cbrt(static_cast<float>(n)) * params.h / 2);
  for (int k = 0; k < 3; ++k) {
    box.lo[k] = uniform(-1, 1);
    box.hi[k] = box.lo[k] + edge * uniform(1, 2);
  }
  params.table_size = random() % 3 == 0 ? 1 + random() % 64 : 0;
  const float spacing = params.h / 2;
  const float mass = params.rest_density * spacing * spacing * spacing;
  State& state = scene.state;
  const float cx = 0.5f * (box.lo[0] + box.hi[0]);
  const float cz = 0.5f * (box.lo[2] + box.hi[2]);
  const float radius =
      0.5f * std::min(box.hi[0] - box.lo[0], box.hi[2] - box.lo[2]);
  // Particles fill the lower part of the container, a block about n
  // spacings^3 in volume, so that neighbourhoods are full.
  const float fill = std::min(1.0f, edge / (box.hi[1] - box.lo[1]));
  while (state.size() < n) {
    float x = uniform(box.lo[0], box.hi[0]);
    float y = box.lo[1] + fill * uniform(0, 1) * (box.hi[1] - box.lo[1]);
    float z = uniform(box.lo[2], box.hi[2]);
    float vx = uniform(-1, 1);
    float vy = uniform(-1, 1);
    float vz = uniform(-1, 1);
    if (random() % 4 == 0) {
      // On a wall or just inside it, heading out.
      switch (random() % 3) {
        case 0:
          y = box.lo[1] + (random() % 2 ? 0.0f : uniform(0, 1e-4f));
          vy = -std::abs(vy);
          break;
        case 1:
          x = random() % 2 ? box.lo[0] : box.hi[0];
          vx = x == box.lo[0] ? -std::abs(vx) : std::abs(vx);
          break;
        default:
          y = box.hi[1];
          vy = std::abs(vy);
      }
    }
    if (box.kind == Container::Kind::kGlass) {
      const float dx = x - cx;
      const float dz = z - cz;
      if (dx * dx + dz * dz > 0.98f * radius * radius) continue;
    }
    state.x.PushBack(x, y, z);
    state.v.PushBack(vx, vy, vz);
    state.mass.push_back(equal_masses ? mass : mass * uniform(0.5f, 1.5f));
  }
  state.density.assign(n, 1);
  const std::vector<double> density =
      checks::sph::OracleDensities(state, params);
  for (std::size_t i = 0; i < n; ++i) {
    state.density[i] = static_cast<float>(density[i] * uniform(0.8f, 1.2f));
  }
  return scene;
}

// Bit for bit: a rejected step must leave NaN where it found NaN, which
// State's == (NaN != NaN) cannot tell.
bool SameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](float p, float q) {
           return std::bit_cast<std::uint32_t>(p) ==
                  std::bit_cast<std::uint32_t>(q);
         });
}
bool SameBits(const State& a, const State& b) {
  return SameBits(a.x.x, b.x.x) && SameBits(a.x.y, b.x.y) &&
         SameBits(a.x.z, b.x.z) && SameBits(a.v.x, b.v.x) &&
         SameBits(a.v.y, b.v.y) && SameBits(a.v.z, b.v.z) &&
         SameBits(a.density, b.density) && SameBits(a.mass, b.mass);
}

class Sph : public testing::VariantTest<&sph::Variants> {
 protected:
  Definition definition() const { return DefinitionOf(variant()); }
  bool homogeneous() const { return variant().name == "homogeneous"; }
  void Step(State& state, const Params& params) const {
    Workspace workspace;
    StepReport report;
    variant().run(state, params, workspace, report);
  }
  // A step the variant must refuse with sph::Error saying `expected`.
  void ExpectStepRefused(State& state, const Params& params,
                         const std::string& expected) const {
    try {
      Step(state, params);
      ADD_FAILURE() << "a step was taken where the error was expected: "
                    << expected;
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos)
          << error.what();
    }
  }
};

TEST_P(Sph, OneStepMatchesTheOracle) {
  const bool equal = homogeneous();
  EXPECT_TRUE(rc::check("fluids of up to 160 particles", [&] {
    const auto seed = *rc::gen::arbitrary<std::uint32_t>();
    const auto n = *rc::gen::inRange<std::size_t>(0, 160);
    Scene scene = RandomScene(seed, n, equal || seed % 2 == 0);
    RC_CLASSIFY(scene.params.container.kind == Container::Kind::kGlass,
                "glass");
    const State before = scene.state;
    Step(scene.state, scene.params);
    const std::string difference = checks::sph::FirstDifference(
        before, scene.params, definition(), scene.state);
    RC_ASSERT(difference == "");
  }));
}

// Every step of a short run against the oracle's step from the same state
// (the error of each step, not the run's divergence, which grows with the
// flow's own sensitivity).
TEST_P(Sph, EveryStepOfAShortRunMatchesTheOracle) {
  for (const std::uint32_t seed : {1u, 2u, 3u}) {
    Scene scene = RandomScene(seed, 300, true);
    Prepare(scene.state, scene.params);
    Workspace workspace;
    StepReport report;
    for (int step = 0; step < 8; ++step) {
      const State before = scene.state;
      variant().run(scene.state, scene.params, workspace, report);
      const std::string difference = checks::sph::FirstDifference(
          before, scene.params, definition(), scene.state);
      ASSERT_EQ(difference, "") << "seed " << seed << ", step " << step;
      EXPECT_GT(report.interactions, 0u);
      EXPECT_GE(report.candidates, report.interactions);
    }
  }
}

// A few particles in a container of some 300^3 cells of h: variants that
// index the container's cells (a table of cell starts, a grid hash) must
// fall back to searching rather than allocate per cell, and still agree.
TEST_P(Sph, AFluidInAVastContainerMatchesTheOracle) {
  for (const std::uint32_t seed : {4u, 5u}) {
    Scene scene = RandomScene(seed, 120, true);
    Container& box = scene.params.container;
    box.kind = Container::Kind::kBox;
    for (int k = 0; k < 3; ++k) box.hi[k] += 300 * scene.params.h;
    const State before = scene.state;
    Step(scene.state, scene.params);
    EXPECT_EQ(checks::sph::FirstDifference(before, scene.params, definition(),
                                           scene.state),
              "")
        << "seed " << seed;
  }
}

// The fluid squeezed towards a corner until a particle has over 64
// neighbours, more than a fixed-length neighbour list holds
// (cuda_neighbor's 64: its step reruns with room for the longest).
TEST_P(Sph, ADenseFluidMatchesTheOracle) {
  Scene scene = RandomScene(6, 150, true);
  const float* lo = scene.params.container.lo;
  for (std::size_t i = 0; i < scene.state.size(); ++i) {
    scene.state.x.x[i] = lo[0] + 0.25f * (scene.state.x.x[i] - lo[0]);
    scene.state.x.y[i] = lo[1] + 0.25f * (scene.state.x.y[i] - lo[1]);
    scene.state.x.z[i] = lo[2] + 0.25f * (scene.state.x.z[i] - lo[2]);
  }
  const State before = scene.state;
  Workspace workspace;
  StepReport report;
  variant().run(scene.state, scene.params, workspace, report);
  EXPECT_EQ(checks::sph::FirstDifference(before, scene.params, definition(),
                                         scene.state),
            "");
  EXPECT_GT(report.interactions, 64u * before.size());
}

// With the densities of t-1 equal to those of t0, the collapsed step is
// the three-pass step; with other densities of t-1 the oracle's two
// definitions differ by more than the tolerance, so the test above tells
// them apart (it could not pass for the wrong definition).
TEST(SphDefinitions, CollapsedAndThreePassDifferWhenDensitiesOfTMinus1Do) {
  Scene scene = RandomScene(7, 200, true);
  scene.params.stiffness = 20;
  const State before = scene.state;
  State three_pass = scene.state;
  Workspace workspace;
  StepReport report;
  NaiveStep(three_pass, scene.params, workspace, report);
  EXPECT_EQ(checks::sph::FirstDifference(before, scene.params,
                                         Definition::kThreePass, three_pass),
            "");
  EXPECT_NE(checks::sph::FirstDifference(before, scene.params,
                                         Definition::kCollapsed, three_pass),
            "");
  State prepared = scene.state;
  Prepare(prepared, scene.params);
  State collapsed = prepared;
  CollapseStep(collapsed, scene.params, workspace, report);
  EXPECT_EQ(checks::sph::FirstDifference(prepared, scene.params,
                                         Definition::kThreePass, collapsed),
            "");
}

// Pair forces are equal and opposite: without gravity and walls in reach,
// the total momentum does not change (up to the rounding of the sum of
// the changes). Algorithm 2 reads i and j in different states, so its
// pairs are not opposite; it is left out.
class MomentumSph : public Sph {};

TEST_P(MomentumSph, ConservesMomentumWithoutGravityOrWalls) {
  for (const std::uint32_t seed : {11u, 12u, 13u, 14u}) {
    Scene scene = RandomScene(seed, 250, true);
    Params& params = scene.params;
    for (float& g : params.gravity) g = 0;
    // Walls far away: the particles keep their place, the box grows.
    for (int k = 0; k < 3; ++k) {
      params.container.lo[k] -= 10;
      params.container.hi[k] += 10;
    }
    params.container.kind = Container::Kind::kBox;
    const State before = scene.state;
    Step(scene.state, params);
    double change[3] = {0, 0, 0};
    double magnitude = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
      const double m = before.mass[i];
      const double d[3] = {double{scene.state.v.x[i]} - before.v.x[i],
                           double{scene.state.v.y[i]} - before.v.y[i],
                           double{scene.state.v.z[i]} - before.v.z[i]};
      for (int k = 0; k < 3; ++k) change[k] += m * d[k];
      magnitude += m * std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    EXPECT_GT(magnitude, 0) << "seed " << seed;
    for (int k = 0; k < 3; ++k) {
      EXPECT_LE(std::abs(change[k]), 1e-4 * magnitude)
          << "seed " << seed << ", axis " << k;
    }
  }
}

// A lattice at rest at its own rest density, without gravity: particles
// at least 2 h inside see a symmetric neighbourhood of particles at rest
// density, so they stay at rest, while the surface is pulled in.
TEST_P(Sph, InteriorOfALatticeAtRestDensityStaysAtRest) {
  Params params;
  params.h = 0.1f;
  params.rest_density = 1;  // replaced by the lattice's own below
  params.stiffness = 10;
  params.viscosity = 1;
  params.dt = 1e-3f;
  for (float& g : params.gravity) g = 0;
  params.container.kind = Container::Kind::kBox;
  const int side = 12;
  const float spacing = params.h / 2;
  for (int k = 0; k < 3; ++k) {
    params.container.lo[k] = -1;
    params.container.hi[k] = 2;
  }
  State state;
  for (int z = 0; z < side; ++z) {
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        state.x.PushBack(static_cast<float>(x) * spacing,
                         static_cast<float>(y) * spacing,
                         static_cast<float>(z) * spacing);
        state.v.PushBack(0, 0, 0);
        state.mass.push_back(0.125f);
      }
    }
  }
  state.density.assign(state.size(), 0);
  Prepare(state, params);
  const std::size_t centre = (side / 2) * (1 + side + side * side);
  params.rest_density = state.density[centre];
  Step(state, params);
  double fastest = 0;
  double fastest_inside = 0;
  for (int z = 0; z < side; ++z) {
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        const std::size_t i = x + side * (y + side * z);
        const double speed =
            std::hypot(state.v.x[i], state.v.y[i], state.v.z[i]);
        fastest = std::max(fastest, speed);
        const int inside =
            std::min({x, y, z, side - 1 - x, side - 1 - y, side - 1 - z});
        if (inside >= 4) fastest_inside = std::max(fastest_inside, speed);
      }
    }
  }
  EXPECT_GT(fastest, 0);
  EXPECT_LE(fastest_inside, 1e-4 * fastest);
}

TEST_P(Sph, NoParticlesIsAValidStep) {
  Scene scene = RandomScene(5, 0, true);
  Step(scene.state, scene.params);
  EXPECT_EQ(scene.state.size(), 0u);
}

// Bad input: a clear sph::Error before the state changes.
TEST_P(Sph, RejectsBadInputNamingIt) {
  const Scene good = RandomScene(21, 40, true);
  const auto rejects = [&](auto spoil, const std::string& words) {
    Scene scene = good;
    spoil(scene);
    const State before = scene.state;
    try {
      Step(scene.state, scene.params);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos)
          << error.what();
    }
    EXPECT_TRUE(SameBits(scene.state, before)) << words;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  rejects([&](Scene& s) { s.state.x.y[7] = nan; },
          "particle 7 has a NaN or infinite position");
  rejects([&](Scene& s) { s.state.v.z[3] = inf; },
          "particle 3 has a NaN or infinite velocity");
  rejects([&](Scene& s) { s.state.mass[5] = 0; }, "particle 5 has a mass");
  rejects([&](Scene& s) { s.state.mass[6] = -1; }, "particle 6 has a mass");
  rejects([&](Scene& s) { s.state.x.x[2] = s.params.container.hi[0] + 1; },
          "particle 2 is outside the container");
  rejects([&](Scene& s) { s.params.h = 0; }, "smoothing length");
  rejects([&](Scene& s) { s.params.h = -0.1f; }, "smoothing length");
  rejects([&](Scene& s) { s.params.h = nan; }, "smoothing length");
  rejects([&](Scene& s) { s.params.dt = 0; }, "time step");
  rejects([&](Scene& s) { s.params.dt = inf; }, "time step");
  // Every row refuses a step above the CFL bound, naming the bound (its
  // exact boundary: SphChecks.InputChecksHoldAtTheirExactBoundaries).
  rejects(
      [&](Scene& s) {
        s.params.h = 0.125f;
        s.params.stiffness = 16;
        s.params.dt = 2 * 0.125f / 4;
      },
      "above the CFL bound 1 h / c = 0.03125");
  rejects([&](Scene& s) { s.params.rest_density = 0; }, "rest density");
  rejects([&](Scene& s) { s.params.stiffness = -1; }, "stiffness");
  rejects([&](Scene& s) { s.params.viscosity = nan; }, "viscosity");
  rejects([&](Scene& s) { s.params.gravity[1] = inf; }, "gravity");
  rejects([&](Scene& s) { s.params.container.restitution = 2; }, "restitution");
  rejects(
      [&](Scene& s) { s.params.container.hi[0] = s.params.container.lo[0]; },
      "lo < hi");
  rejects([&](Scene& s) { s.params.container.lo[2] = -1e30f; }, "2^20 cells");
  rejects([&](Scene& s) { s.state.mass.pop_back(); }, "one length");
  if (definition() != Definition::kThreePass) {
    rejects([&](Scene& s) { s.state.density[4] = 0; },
            "particle 4 has a density of t-1");
  }
  if (homogeneous()) {
    rejects([&](Scene& s) { s.state.mass[9] *= 2; }, "one fluid");
  }
}

// A step too long for the stiffness is refused before it is taken: the
// CFL bound, named in the message.
TEST_P(Sph, AStepAboveTheCflBoundIsRefused) {
  Scene scene = RandomScene(31, 120, true);
  scene.params.stiffness = 1e9f;
  scene.params.dt = 0.05f;
  const State before = scene.state;
  ExpectStepRefused(scene.state, scene.params, "above the CFL bound");
  EXPECT_TRUE(SameBits(scene.state, before));
}

// One particle thrown far in one step (the walls out of reach): the step
// says so, naming it and how far it went. Viscosity 0, so that no
// neighbour of lower index is dragged along and named first.
TEST_P(Sph, ABlownUpStateIsAnError) {
  Scene scene = RandomScene(31, 120, true);
  scene.params.viscosity = 0;
  for (int k = 0; k < 3; ++k) {
    scene.params.container.lo[k] -= 1000;
    scene.params.container.hi[k] += 1000;
  }
  scene.state.v.x[17] = 3 * scene.params.h / scene.params.dt;
  ExpectStepRefused(scene.state, scene.params, "blew up: particle 17 moved");
}

// The same throw at a wall that stops it: the clamp puts the particle back
// on the wall with its outward velocity zeroed (restitution 0), so the
// finished state looks calm; the step before the wall's response does not.
// Down onto the floor of a box, and sideways into a glass's wall.
TEST_P(Sph, ABlowUpTheWallsStopIsStillAnError) {
  for (const Container::Kind kind :
       {Container::Kind::kBox, Container::Kind::kGlass}) {
    Scene scene = RandomScene(31, 120, true);
    scene.params.viscosity = 0;
    scene.params.container.kind = kind;
    scene.params.container.restitution = 0;
    // The glass's wall may leave some particles outside: drop them.
    State inside;
    for (std::size_t i = 0; i < scene.state.size(); ++i) {
      const State& s = scene.state;
      if (!detail::Inside(scene.params.container, s.x.x[i], s.x.y[i],
                          s.x.z[i])) {
        continue;
      }
      inside.x.PushBack(s.x.x[i], s.x.y[i], s.x.z[i]);
      inside.v.PushBack(s.v.x[i], s.v.y[i], s.v.z[i]);
      inside.density.push_back(s.density[i]);
      inside.mass.push_back(s.mass[i]);
    }
    ASSERT_GT(inside.size(), 40u);
    scene.state = inside;
    const float throw_speed = 1000 * scene.params.h / scene.params.dt;
    if (kind == Container::Kind::kBox) {
      scene.state.v.y[17] = -throw_speed;
    } else {
      // Straight out from the axis, so that the wall takes all of it.
      const detail::Glass glass = detail::GlassOf(scene.params.container);
      const double dx = scene.state.x.x[17] - glass.cx;
      const double dz = scene.state.x.z[17] - glass.cz;
      const double d = std::hypot(dx, dz);
      scene.state.v.x[17] = static_cast<float>(throw_speed * dx / d);
      scene.state.v.y[17] = 0;
      scene.state.v.z[17] = static_cast<float>(throw_speed * dz / d);
    }
    ExpectStepRefused(scene.state, scene.params, "blew up: particle 17 moved");
  }
}

// The hostile case: a fluid at rest with no stiffness (so no CFL bound)
// and dt = 1 s. Gravity alone carries every particle meters through the
// floor, which stops each with its velocity zeroed: the finished state is
// at rest on the floor, and the first particle is named.
TEST_P(Sph, ALongStepWithoutStiffnessIsABlowUpThoughTheFloorStopsIt) {
  Scene scene = RandomScene(32, 60, true);
  scene.state.v.Resize(0);
  scene.state.v.Resize(scene.state.size());
  scene.params.stiffness = 0;
  scene.params.viscosity = 0;
  scene.params.dt = 1;
  scene.params.gravity[0] = 0;
  scene.params.gravity[1] = -9.81f;
  scene.params.gravity[2] = 0;
  scene.params.container.restitution = 0;
  ExpectStepRefused(scene.state, scene.params, "blew up: particle 0 moved");
}

// The move bound at its exact boundary: alone (no neighbour, no gravity, no
// stiffness), particle 1 moves v dt = 4 x 0.125 = h = 0.5 exactly, which is
// allowed; a float more and it is named.
TEST_P(Sph, TheMoveBoundHoldsAtItsExactBoundary) {
  Params params;
  params.h = 0.5f;
  params.rest_density = 1000;
  params.dt = 0.125f;
  for (float& g : params.gravity) g = 0;
  for (int k = 0; k < 3; ++k) {
    params.container.lo[k] = -10;
    params.container.hi[k] = 10;
  }
  State state;
  state.x.PushBack(-5, 0, 0);
  state.x.PushBack(5, 0, 0);
  state.v.PushBack(0, 0, 0);
  state.v.PushBack(0, 4, 0);
  state.mass.assign(2, 1);
  state.density.assign(2, 1000);
  Prepare(state, params);
  State at = state;
  EXPECT_NO_THROW(Step(at, params));
  EXPECT_EQ(at.x.y[1], 0.5f);
  State past = state;
  past.v.y[1] = std::nextafter(4.0f, 5.0f);
  ExpectStepRefused(past, params, "particle 1 moved 0.500000");
}

// Where the particles' bounding box holds far more cells than particles
// (two clumps at opposite corners of a vast box), the cell sort is a
// comparison sort, not a counting sort over the box; every row still
// agrees with the oracle there.
Scene SparseScene(std::uint32_t seed) {
  Scene scene = RandomScene(seed, 120, true);
  Container& box = scene.params.container;
  box.kind = Container::Kind::kBox;
  const float far = 150 * scene.params.h;
  const float middle = 0.5f * (box.lo[0] + box.hi[0]);
  for (int k = 0; k < 3; ++k) box.hi[k] += 2 * far;
  State& state = scene.state;
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (state.x.x[i] >= middle) continue;
    state.x.x[i] += far;
    state.x.y[i] += far;
    state.x.z[i] += far;
  }
  return scene;
}

TEST_P(Sph, AFluidInASparseBoxOfCellsMatchesTheOracle) {
  for (const std::uint32_t seed : {8u, 9u}) {
    Scene scene = SparseScene(seed);
    Workspace probe;
    ASSERT_FALSE(detail::SortByCell(scene.state.x, scene.params, probe).dense)
        << "the scene must take the comparison sort";
    const State before = scene.state;
    Step(scene.state, scene.params);
    EXPECT_EQ(checks::sph::FirstDifference(before, scene.params, definition(),
                                           scene.state),
              "")
        << "seed " << seed;
  }
}

// A row's twin gives the same bits (neighbor walks naive's neighbours in
// naive's order with naive's arithmetic; an OpenMP row its serial row's
// additions in the same order) on 1 to 5 threads.
class TwinSph : public Sph {};

TEST_P(TwinSph, GivesItsTwinsBitsOnEveryThreadCount) {
  const auto& twin = testing::TwinOf(Variants(), variant());
  const int default_threads = omp_get_max_threads();
  for (const int threads : {1, 2, 3, 5}) {
    omp_set_num_threads(threads);
    for (const std::uint32_t seed : {41u, 42u}) {
      Scene scene = RandomScene(seed, 1200, false);
      Prepare(scene.state, scene.params);
      State mine = scene.state;
      State theirs = scene.state;
      Workspace a, b;
      StepReport ra, rb;
      for (int step = 0; step < 3; ++step) {
        variant().run(mine, scene.params, a, ra);
        twin.run(theirs, scene.params, b, rb);
        ASSERT_TRUE(SameBits(mine, theirs))
            << threads << " threads, seed " << seed << ", step " << step;
        EXPECT_EQ(ra.interactions, rb.interactions);
      }
    }
  }
  omp_set_num_threads(default_threads);
}

INSTANTIATE_TEST_SUITE_P(Variants, Sph,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);
// Algorithm 2's pair forces read two states, so they are not opposite.
INSTANTIATE_TEST_SUITE_P(
    Variants, MomentumSph,
    ::testing::ValuesIn(testing::CasesWhere(Variants(),
                                            [](const Variant& variant) {
                                              return DefinitionOf(variant) !=
                                                     Definition::kInPlace;
                                            })),
    testing::CaseName);
INSTANTIATE_TEST_SUITE_P(
    Variants, TwinSph, ::testing::ValuesIn(testing::CasesWithTwin(Variants())),
    testing::CaseName);

// Sets OpenMP's thread count for a scope and restores it on leaving, also
// when an assertion ends the test early.
class Threads {
 public:
  explicit Threads(int count) : before_(omp_get_max_threads()) {
    omp_set_num_threads(count);
  }
  ~Threads() { omp_set_num_threads(before_); }
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;

 private:
  int before_;
};

// ReorderByCell against an order written here from its contract (cells
// z, then y, then x, by floor((c - lo) / h) in double; inside a cell by x,
// then index), on enough particles (2^17) that the cell sort runs on 2
// threads; every array follows the permutation, and a second reorder
// changes nothing.
TEST(SphReorder, ReorderByCellSortsEveryArrayByCell) {
  const Threads two(2);
  Params params;
  params.h = 0.05f;
  params.rest_density = 1000;
  params.dt = 1e-3f;
  params.container.lo[1] = -0.5f;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(0, 1);
  State state;
  const std::size_t n = std::size_t{1} << 17;
  for (std::size_t i = 0; i < n; ++i) {
    state.x.PushBack(unit(random), unit(random) - 0.5f, unit(random));
    state.v.PushBack(unit(random), unit(random), unit(random));
    state.density.push_back(1000 + unit(random));
    state.mass.push_back(0.5f + unit(random));
  }
  const State before = state;
  const auto cell = [&](std::size_t i, int axis) {
    const float* c[] = {before.x.x.data(), before.x.y.data(),
                        before.x.z.data()};
    return std::floor((double{c[axis][i]} - params.container.lo[axis]) /
                      double{params.h});
  };
  std::vector<std::uint32_t> expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    expected[i] = static_cast<std::uint32_t>(i);
  }
  std::sort(expected.begin(), expected.end(),
            [&](std::uint32_t a, std::uint32_t b) {
              const auto key = [&](std::uint32_t i) {
                return std::tuple(cell(i, 2), cell(i, 1), cell(i, 0),
                                  before.x.x[i], i);
              };
              return key(a) < key(b);
            });
  const std::vector<std::uint32_t> permutation = ReorderByCell(state, params);
  ASSERT_EQ(permutation, expected);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = permutation[k];
    ASSERT_EQ(state.x.x[k], before.x.x[i]) << k;
    ASSERT_EQ(state.x.y[k], before.x.y[i]) << k;
    ASSERT_EQ(state.x.z[k], before.x.z[i]) << k;
    ASSERT_EQ(state.v.x[k], before.v.x[i]) << k;
    ASSERT_EQ(state.v.y[k], before.v.y[i]) << k;
    ASSERT_EQ(state.v.z[k], before.v.z[i]) << k;
    ASSERT_EQ(state.density[k], before.density[i]) << k;
    ASSERT_EQ(state.mass[k], before.mass[i]) << k;
  }
  const State sorted = state;
  const std::vector<std::uint32_t> again = ReorderByCell(state, params);
  for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(again[k], k);
  EXPECT_TRUE(SameBits(state, sorted));
  // One thread: the same order.
  State serial = before;
  EXPECT_EQ(ReorderByCell(serial, params, false), permutation);
  EXPECT_TRUE(SameBits(serial, sorted));
}

// The OpenMP rows against their serial twins, bit for bit, on a cloud
// large enough (2^17 particles) that their cell sort also runs on the
// threads (the properties' small clouds sort serially): on 2 and 3
// threads, and inside an outer parallel region, where the team is smaller
// than the thread count asked for.
TEST(SphReorder, OpenMpTwinsAgreeOnALargeCloud) {
  // Uniform in a unit box (RandomScene's walls and fill take half a minute
  // at this size).
  Params params;
  params.h = 0.05f;
  params.rest_density = 1000;
  params.stiffness = 100;
  params.viscosity = 1;
  params.dt = 1e-4f;
  std::mt19937 random(11);
  std::uniform_real_distribution<float> unit(0, 1);
  State cloud;
  for (std::size_t i = 0; i < (std::size_t{1} << 17); ++i) {
    cloud.x.PushBack(unit(random), unit(random), unit(random));
    cloud.v.PushBack(unit(random) - 0.5f, unit(random) - 0.5f, 0);
    cloud.mass.push_back(0.05f);
    cloud.density.push_back(0);
  }
  Prepare(cloud, params);
  for (const Variant& variant : Variants()) {
    if (variant.backend != Backend::kOpenMp || variant.twin.empty()) continue;
    const Variant* twin = FindVariant(Variants(), variant.twin);
    ASSERT_NE(twin, nullptr) << variant.name;
    State serial = cloud;
    Workspace serial_workspace;
    StepReport serial_report;
    twin->run(serial, params, serial_workspace, serial_report);
    for (const int threads : {2, 3}) {
      const Threads count(threads);
      State parallel = cloud;
      Workspace workspace;
      StepReport report;
      variant.run(parallel, params, workspace, report);
      EXPECT_EQ(report.threads, threads) << variant.name;
      EXPECT_TRUE(SameBits(parallel, serial))
          << variant.name << ", " << threads << " threads";
      EXPECT_EQ(report.interactions, serial_report.interactions);
    }
    const Threads count(2);
    State nested = cloud;
#pragma omp parallel num_threads(1)
    {
      Workspace workspace;
      StepReport report;
      variant.run(nested, params, workspace, report);
    }
    EXPECT_TRUE(SameBits(nested, serial)) << variant.name << ", nested";
  }
}

// The OpenMP rows' checks name the first bad particle, as the serial ones
// do, whichever thread meets it first.
TEST(SphReorder, OpenMpChecksNameTheFirstBadParticle) {
  Scene scene = RandomScene(5, 4000, false);
  State& cloud = scene.state;
  const Params& params = scene.params;
  cloud.x.y[cloud.size() - 1] = std::numeric_limits<float>::quiet_NaN();
  cloud.mass[3] = 0;
  for (const Variant& variant : Variants()) {
    if (variant.backend != Backend::kOpenMp) continue;
    for (const int threads : {2, 3}) {
      const Threads count(threads);
      State state = cloud;
      Workspace workspace;
      StepReport report;
      try {
        variant.run(state, params, workspace, report);
        ADD_FAILURE() << variant.name << ": no error";
      } catch (const Error& error) {
        EXPECT_NE(std::string(error.what()).find("particle 3 has a mass"),
                  std::string::npos)
            << variant.name << ": " << error.what();
      }
      EXPECT_TRUE(SameBits(state, cloud)) << variant.name;
    }
  }
  const Threads count(2);
  State state = cloud;
  try {
    ReorderByCell(state, params);
    ADD_FAILURE() << "ReorderByCell: no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("particle 3 has a mass"),
              std::string::npos)
        << error.what();
  }
}

// Bad input is refused before anything moves; no particles is valid.
TEST(SphReorder, ReorderByCellRefusesBadInputUntouched) {
  Params params;
  params.h = 0.1f;
  params.rest_density = 1000;
  params.dt = 1e-3f;
  State state;
  state.x.PushBack(0.9f, 0.5f, 0.5f);
  state.x.PushBack(0.1f, 0.5f, 0.5f);
  state.x.PushBack(0.5f, 0.5f, 0.5f);
  for (int i = 0; i < 3; ++i) {
    state.v.PushBack(0, 0, 0);
    state.density.push_back(1000);
    state.mass.push_back(1);
  }
  State bad = state;
  bad.x.y[2] = std::numeric_limits<float>::quiet_NaN();
  State bad_before = bad;
  EXPECT_THROW(ReorderByCell(bad, params), Error);
  EXPECT_TRUE(SameBits(bad, bad_before));
  bad = state;
  bad.mass[1] = 0;
  bad_before = bad;
  EXPECT_THROW(ReorderByCell(bad, params), Error);
  EXPECT_TRUE(SameBits(bad, bad_before));
  Params no_h = params;
  no_h.h = 0;
  EXPECT_THROW(ReorderByCell(state, no_h), Error);
  State empty;
  EXPECT_TRUE(ReorderByCell(empty, params).empty());
  // Three cells along x: reversed into x order.
  EXPECT_EQ(ReorderByCell(state, params),
            (std::vector<std::uint32_t>{1, 2, 0}));
  EXPECT_EQ(state.x.x, (std::vector<float>{0.1f, 0.5f, 0.9f}));
}

// Each input check at its exact boundary: the last value it accepts and
// the first it refuses (the float next to it), so that a comparison
// loosened or tightened by one step (> for >=) fails here.
TEST(SphChecks, InputChecksHoldAtTheirExactBoundaries) {
  const float denormal = std::numeric_limits<float>::denorm_min();
  Params good;
  good.h = 0.125f;
  good.rest_density = 1000;
  good.stiffness = 16;  // c = 4: the CFL bound dt <= h / c = 0.03125
  good.viscosity = 1;
  good.dt = 0.01f;
  const auto accepts = [](const Params& params) {
    try {
      Check(params);
      return std::string();
    } catch (const Error& error) {
      return std::string(error.what());
    }
  };
  const auto refuses = [&](const Params& params, const std::string& words) {
    const std::string what = accepts(params);
    return !what.empty() && what.find(words) != std::string::npos;
  };
  ASSERT_EQ(accepts(good), "");
  Params p = good;
  // The CFL bound, dt sqrt(stiffness) <= h.
  p.dt = 0.03125f;
  EXPECT_EQ(accepts(p), "");
  p.dt = std::nextafter(0.03125f, 1.0f);
  EXPECT_TRUE(refuses(p, "above the CFL bound 1 h / c = 0.03125"))
      << accepts(p);
  // No stiffness: no sound, no bound.
  p.stiffness = 0;
  p.dt = 1e30f;
  EXPECT_EQ(accepts(p), "");
  // dt > 0.
  p = good;
  p.dt = denormal;
  EXPECT_EQ(accepts(p), "");
  p.dt = 0;
  EXPECT_TRUE(refuses(p, "time step"));
  p.dt = -0.0f;
  EXPECT_TRUE(refuses(p, "time step"));
  // rest density > 0.
  p = good;
  p.rest_density = denormal;
  EXPECT_EQ(accepts(p), "");
  p.rest_density = 0;
  EXPECT_TRUE(refuses(p, "rest density"));
  // stiffness and viscosity >= 0.
  p = good;
  p.stiffness = 0;
  p.viscosity = 0;
  EXPECT_EQ(accepts(p), "");
  p.stiffness = -denormal;
  EXPECT_TRUE(refuses(p, "stiffness"));
  p.stiffness = 0;
  p.viscosity = -denormal;
  EXPECT_TRUE(refuses(p, "viscosity"));
  // restitution in [0, 1].
  p = good;
  p.container.restitution = 0;
  EXPECT_EQ(accepts(p), "");
  p.container.restitution = 1;
  EXPECT_EQ(accepts(p), "");
  p.container.restitution = std::nextafter(1.0f, 2.0f);
  EXPECT_TRUE(refuses(p, "restitution"));
  p.container.restitution = -denormal;
  EXPECT_TRUE(refuses(p, "restitution"));
  // h > 0 (the smallest h the cell limit lets through is below).
  p = good;
  p.h = 0;
  EXPECT_TRUE(refuses(p, "smoothing length"));
  p.h = -0.0f;
  EXPECT_TRUE(refuses(p, "smoothing length"));
  // lo < hi, and at most 2^20 cells of h per axis: the unit box has
  // exactly 2^20 cells of 2^-20.
  p = good;
  p.stiffness = 0;
  p.container.lo[0] = std::nextafter(1.0f, 0.0f);
  EXPECT_EQ(accepts(p), "");
  p.container.lo[0] = 1;
  EXPECT_TRUE(refuses(p, "lo < hi"));
  p.container.lo[0] = 0;
  p.h = 0x1p-20f;
  EXPECT_EQ(accepts(p), "");
  p.h = std::nextafter(0x1p-20f, 0.0f);
  EXPECT_TRUE(refuses(p, "2^20 cells"));

  // The state's checks: inside the container up to its walls, masses and
  // densities of t-1 > 0.
  State state;
  state.x.PushBack(0.5f, 0.5f, 0.5f);
  state.v.PushBack(0, 0, 0);
  state.mass.push_back(1);
  state.density.push_back(1000);
  const auto state_accepts = [&](const State& s, bool reads_density) {
    try {
      Check(s, good, reads_density);
      return std::string();
    } catch (const Error& error) {
      return std::string(error.what());
    }
  };
  ASSERT_EQ(state_accepts(state, true), "");
  const auto coordinate = [](State& s, int axis) -> float& {
    return axis == 0 ? s.x.x[0] : axis == 1 ? s.x.y[0] : s.x.z[0];
  };
  for (int axis = 0; axis < 3; ++axis) {
    State s = state;
    for (const float wall : {0.0f, 1.0f}) {
      coordinate(s, axis) = wall;
      EXPECT_EQ(state_accepts(s, false), "") << "axis " << axis;
      coordinate(s, axis) = std::nextafter(wall, wall == 0 ? -1.0f : 2.0f);
      EXPECT_NE(state_accepts(s, false).find("outside the container"),
                std::string::npos)
          << "axis " << axis << ", wall " << wall;
    }
  }
  State s = state;
  s.mass[0] = denormal;
  EXPECT_EQ(state_accepts(s, false), "");
  s.mass[0] = 0;
  EXPECT_NE(state_accepts(s, false).find("has a mass"), std::string::npos);
  s = state;
  s.density[0] = denormal;
  EXPECT_EQ(state_accepts(s, true), "");
  s.density[0] = 0;
  EXPECT_NE(state_accepts(s, true).find("density of t-1"), std::string::npos);
  EXPECT_EQ(state_accepts(s, false), "");  // a three-pass step ignores it
}

// The comparison sort of a sparse box of cells (the properties' other
// fluids take the counting sort): the order its contract states, cells
// ascending by key (x fastest over the particles' box of cells), ids
// ascending inside a cell, written here from that contract.
TEST(SphCellSort, ASparseBoxIsSortedByKeyThenId) {
  for (const std::uint32_t seed : {8u, 9u}) {
    const Scene scene = SparseScene(seed);
    const State& state = scene.state;
    const Params& params = scene.params;
    const std::size_t n = state.size();
    std::vector<std::array<std::int64_t, 3>> cell(n);
    std::array<std::int64_t, 3> lo{INT64_MAX, INT64_MAX, INT64_MAX};
    std::array<std::int64_t, 3> hi{INT64_MIN, INT64_MIN, INT64_MIN};
    for (std::size_t i = 0; i < n; ++i) {
      const float c[] = {state.x.x[i], state.x.y[i], state.x.z[i]};
      for (int k = 0; k < 3; ++k) {
        cell[i][k] = static_cast<std::int64_t>(
            std::floor((double{c[k]} - params.container.lo[k]) / params.h));
        lo[k] = std::min(lo[k], cell[i][k]);
        hi[k] = std::max(hi[k], cell[i][k]);
      }
    }
    const std::int64_t nx = hi[0] - lo[0] + 1;
    const std::int64_t ny = hi[1] - lo[1] + 1;
    const auto key = [&](std::size_t i) {
      return static_cast<std::uint64_t>(
          (cell[i][0] - lo[0]) +
          nx * ((cell[i][1] - lo[1]) + ny * (cell[i][2] - lo[2])));
    };
    std::vector<std::uint32_t> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      expected[i] = static_cast<std::uint32_t>(i);
    }
    std::sort(expected.begin(), expected.end(),
              [&](std::uint32_t a, std::uint32_t b) {
                return std::pair(key(a), a) < std::pair(key(b), b);
              });
    std::vector<std::uint64_t> expected_keys(n);
    for (std::size_t k = 0; k < n; ++k) expected_keys[k] = key(expected[k]);
    for (const bool parallel : {false, true}) {
      const Threads two(2);
      Workspace workspace;
      const detail::CellBox box =
          detail::SortByCell(state.x, params, workspace, parallel);
      EXPECT_FALSE(box.dense);
      EXPECT_EQ(workspace.entries, expected) << "seed " << seed;
      EXPECT_EQ(workspace.cell_keys, expected_keys) << "seed " << seed;
    }
  }
}

// n points on a lattice of 10 x 10 columns, `step` apart, from 0.5.
Points TightLattice(int n, float step) {
  Points positions;
  for (int i = 0; i < n; ++i) {
    positions.PushBack(0.5f + step * static_cast<float>(i % 10),
                       0.5f + step * static_cast<float>(i / 10 % 10),
                       0.5f + step * static_cast<float>(i / 100));
  }
  return positions;
}

// The neighbour lists of `neighbor` grow with the fluid's density: 3,000
// particles within h of each other list 9 million entries (36 MB), refused
// against a budget of 4 MiB before they are allocated.
TEST(SphBudget, NeighborListsOverTheBudgetAreRefused) {
  Params params = WeaklyCompressible(0.01f, 1);
  State state = AtRest(TightLattice(3000, 0.0001f), 0.01f, params);
  const Variant* neighbor = FindVariant(Variants(), "neighbor");
  ASSERT_NE(neighbor, nullptr);
  const memory::ScopedBudget budget(std::size_t{4} << 20);
  Workspace workspace;
  StepReport report;
  EXPECT_THROW(neighbor->run(state, params, workspace, report), ResourceError);
}

// A fluid at rest asks the memory budget for its state before allocating
// it: refused, naming the particles and the budget, under a small budget.
TEST(SphBudget, AFluidAtRestAsksForItsStateFirst) {
  Params params = WeaklyCompressible(0.01f, 1);
  const Points positions = TightLattice(1000, 0.001f);
  {
    const memory::ScopedBudget budget(1000 * 32);
    EXPECT_NO_THROW(AtRest(positions, 0.01f, params));
  }
  const memory::ScopedBudget budget(1000 * 32 - 1);
  try {
    AtRest(positions, 0.01f, params);
    ADD_FAILURE() << "a fluid over the budget was built";
  } catch (const ResourceError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("1000 particles"), std::string::npos) << what;
    EXPECT_NE(what.find("memory budget"), std::string::npos) << what;
  }
}

// Hand-checked: of three particles, the one high above the floor is not
// the front however far it reaches; the front is the farthest low one,
// from the container's lo x.
TEST(SphChecks, SurgeFrontIsTheFarthestParticleNearTheFloor) {
  Params params;
  params.h = 0.1f;
  params.container.lo[0] = 0.2f;
  params.container.lo[1] = -1;
  State state;
  state.x.PushBack(0.5f, -0.99f, 0);
  state.x.PushBack(0.9f, -0.5f, 0);
  state.x.PushBack(0.7f, -0.95f, 0);
  EXPECT_NEAR(checks::sph::SurgeFront(state, params), 0.5, 1e-6);
  state.x.y[2] = -0.85f;  // h above the floor: no longer on it
  EXPECT_NEAR(checks::sph::SurgeFront(state, params), 0.3, 1e-6);
  EXPECT_EQ(checks::sph::SurgeFront(State{}, params), 0);
}

// A box of N x M x N particles on a unit lattice whose pressures are
// `ratio` times hydrostatic in p / 2: every measure of HydrostaticProfile
// known by hand (mass rho_0 s^3, so volume m / rho ~ s^3 while k is stiff).
struct HydrostaticBox {
  static constexpr int kSide = 12;
  static constexpr int kLayers = 12;
  Params params;
  State state;
  explicit HydrostaticBox(double ratio) {
    params.h = 2;
    params.rest_density = 1000;
    params.stiffness = 1e6f;
    params.gravity[1] = -10;
    params.container.hi[0] = kSide;
    params.container.hi[1] = 100;
    params.container.hi[2] = kSide;
    for (int y = 0; y < kLayers; ++y) {
      for (int z = 0; z < kSide; ++z) {
        for (int x = 0; x < kSide; ++x) {
          const double depth = kLayers - (y + 0.5);
          const double half_pressure = ratio * 1000 * 10 * depth;
          state.x.PushBack(static_cast<float>(x) + 0.5f,
                           static_cast<float>(y) + 0.5f,
                           static_cast<float>(z) + 0.5f);
          state.v.PushBack(0, 0, 0);
          state.mass.push_back(1000);
          state.density.push_back(
              static_cast<float>(1000 + 2 * half_pressure / 1e6));
        }
      }
    }
  }
};

// Hand-checked: a lattice box whose p / 2 is exactly hydrostatic from its
// top (the highest particle plus half a spacing) has no error in p / 2,
// p itself off by three quarters of the floor's pressure, and the slope 1;
// at 1.05 times hydrostatic, the slope is 1.05; the gradient of height is
// the lattice's 0.956 (the bound below); nothing lies on a wall until
// moved there; and the mass fills exactly its 12 layers.
TEST(SphChecks, HydrostaticProfileOfAKnownColumn) {
  HydrostaticBox exact(1.0);
  const checks::sph::Hydrostatic at_rest =
      checks::sph::HydrostaticProfile(exact.state, exact.params, 1);
  EXPECT_NEAR(at_rest.column_height, 12, 1e-6);
  EXPECT_LT(at_rest.half_error_percent, 0.01);
  EXPECT_GT(at_rest.error_percent, 30);
  EXPECT_NEAR(at_rest.slope_ratio, 1, 1e-3);
  EXPECT_NEAR(at_rest.gradient_normalisation, 0.956, 0.002);
  EXPECT_EQ(at_rest.boundary_fraction, 0);
  EXPECT_NEAR(at_rest.volume_height, 12, 1e-9);

  HydrostaticBox steep(1.05);
  steep.state.x.y[0] = 0;    // onto the floor
  steep.state.x.x[5] = 0;    // onto a side wall
  steep.state.x.z[11] = 12;  // onto the far wall
  const checks::sph::Hydrostatic off =
      checks::sph::HydrostaticProfile(steep.state, steep.params, 1);
  EXPECT_NEAR(off.slope_ratio, 1.05, 1e-3);
  EXPECT_NEAR(off.boundary_fraction, 3.0 / (12 * 12 * 12), 1e-12);
  // 5 % of the deepest interior bin's depth (9.0 below the top, bins of h
  // from the particles at least h from the walls) in percent of the floor's.
  EXPECT_GT(off.half_error_percent, 3.5);
  EXPECT_LT(off.half_error_percent, 5);

  // A glass: the one particle moved onto its wall is counted.
  Params glass_params = exact.params;
  glass_params.container.kind = Container::Kind::kGlass;
  State glass;
  glass.x.PushBack(6, 5, 6);
  glass.x.PushBack(6, 5, 0);  // on the wall: radius 6 about (6, 6)
  glass.mass = {1000, 1000};
  glass.density = {1000, 1000};
  glass.v.PushBack(0, 0, 0);
  glass.v.PushBack(0, 0, 0);
  EXPECT_NEAR(
      checks::sph::HydrostaticProfile(glass, glass_params, 1).boundary_fraction,
      0.5, 1e-12);
  EXPECT_EQ(checks::sph::HydrostaticProfile(State{}, exact.params, 1)
                .boundary_fraction,
            0);
}

// The bound behind docs/sph.md's hydrostatics: on the scenes' cubic
// lattice (h = 2 spacings) the spiky kernel's discrete gradient of a
// linear field, sum_j V_j (p_j - p_i) grad W_ij, is 0.956 of the field's
// gradient, so a fluid at rest near that lattice needs a pressure gradient
// 1 / 0.956 = 1.046 times the hydrostatic one (in p / 2 under the
// contract's (p_i + p_j) / 2 force): the profile's deepest bins some 4.6 %
// off at this resolution unless the gradient is corrected.
TEST(SphPhysics, TheLatticeUnderestimatesAGradientByFourPercent) {
  const double spacing = 1;
  const double h = 2 * spacing;
  const double spiky = 45 / (std::numbers::pi * std::pow(h, 6));
  double sum = 0;  // sum_j V_j (x_j - x_i)_y (grad W_ij)_y, p = y
  for (int z = -2; z <= 2; ++z) {
    for (int y = -2; y <= 2; ++y) {
      for (int x = -2; x <= 2; ++x) {
        const double r = spacing * std::sqrt(x * x + y * y + z * z);
        if (r == 0 || r >= h) continue;
        // grad W_ij = -spiky (h - r)^2 (x_i - x_j) / r, x_i at the origin.
        const double gradient_y = -spiky * (h - r) * (h - r) * (-y) / r;
        sum += std::pow(spacing, 3) * (y * spacing) * gradient_y;
      }
    }
  }
  EXPECT_NEAR(sum, 0.956, 0.001);
}

// DeviceState, the fluid kept on the device, steps with its row's kernels:
// k steps on the device, then a download, give the row's k steps bit for
// bit (the same code on the same input), each step within the oracle's
// tolerance as the rows' are, with the row's counters.
#if ADJ_HAVE_CUDA
class SphCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  }
};

struct DeviceForm {
  const char* row;
  DeviceState::Form form;
};
// Every CUDA row of the table, in the form its Traits give.
const std::vector<DeviceForm>& DeviceForms() {
  static const std::vector<DeviceForm> forms = [] {
    std::vector<DeviceForm> cuda_rows;
    for (const Variant& row : Variants()) {
      if (row.backend == Backend::kCuda) {
        cuda_rows.push_back({row.name.data(), DeviceState::FormOf(row)});
      }
    }
    return cuda_rows;
  }();
  return forms;
}

const Variant& RowOf(const DeviceForm& form) {
  const Variant* row = FindVariant(Variants(), form.row);
  if (row == nullptr) throw std::logic_error(form.row);
  return *row;
}

// `steps` steps of `start` by the row and by DeviceState (one Step() at a
// time, each downloaded and held to the oracle from the last), compared
// after every step; then `steps` more by Step(steps) at once.
void ExpectDeviceStateIsItsRow(const DeviceForm& form, const State& start,
                               const Params& params, int steps,
                               const std::string& what) {
  const Variant& row = RowOf(form);
  State host = start;
  Workspace workspace;
  StepReport host_report;
  DeviceState device(start, params, form.form);
  ASSERT_EQ(device.size(), start.size());
  State before = start;
  for (int step = 0; step < steps; ++step) {
    row.run(host, params, workspace, host_report);
    const StepReport report = device.Step();
    State after;
    device.Download(after, true);
    ASSERT_TRUE(SameBits(after, host)) << what << ", step " << step;
    EXPECT_EQ(checks::sph::FirstDifference(before, params,
                                           DefinitionOf(RowOf(form)), after),
              "")
        << what << ", step " << step;
    EXPECT_EQ(report.interactions, host_report.interactions) << what;
    EXPECT_EQ(report.candidates, host_report.candidates) << what;
    EXPECT_GT(report.interactions, 0u) << what;
    EXPECT_GT(report.device_seconds, 0) << what;
    before = after;
  }
  std::vector<std::uint64_t> host_interactions;
  for (int step = 0; step < steps; ++step) {
    row.run(host, params, workspace, host_report);
    host_interactions.push_back(host_report.interactions);
  }
  const std::vector<StepReport> reports = device.Step(steps);
  ASSERT_EQ(reports.size(), static_cast<std::size_t>(steps));
  for (int step = 0; step < steps; ++step) {
    EXPECT_EQ(reports[static_cast<std::size_t>(step)].interactions,
              host_interactions[static_cast<std::size_t>(step)])
        << what << ", step " << steps + step;
  }
  State after;
  device.Download(after);
  EXPECT_TRUE(SameBits(after, host)) << what << ", after Step(" << steps << ")";
}

TEST_F(SphCuda, DeviceStateStepsAsItsRowDoes) {
  for (const DeviceForm& form : DeviceForms()) {
    for (const std::uint32_t seed : {51u, 52u}) {
      Scene scene = RandomScene(seed, 1500, seed % 2 == 0);
      Prepare(scene.state, scene.params);
      ExpectDeviceStateIsItsRow(
          form, scene.state, scene.params, 4,
          std::string(form.row) + ", seed " + std::to_string(seed));
    }
  }
}

// ADenseFluidMatchesTheOracle's squeezed fluid, whose lists overflow
// cuda_neighbor's first 64 (the step runs again from its input), and a
// container of some 300^3 cells (binary searches instead of a table).
TEST_F(SphCuda, DeviceStateStepsDenseFluidsAndVastContainersAsItsRowDoes) {
  Scene dense = RandomScene(6, 150, true);
  const float* lo = dense.params.container.lo;
  for (std::size_t i = 0; i < dense.state.size(); ++i) {
    dense.state.x.x[i] = lo[0] + 0.25f * (dense.state.x.x[i] - lo[0]);
    dense.state.x.y[i] = lo[1] + 0.25f * (dense.state.x.y[i] - lo[1]);
    dense.state.x.z[i] = lo[2] + 0.25f * (dense.state.x.z[i] - lo[2]);
  }
  Prepare(dense.state, dense.params);
  Scene vast = RandomScene(4, 120, true);
  vast.params.container.kind = Container::Kind::kBox;
  for (int k = 0; k < 3; ++k)
    vast.params.container.hi[k] += 300 * vast.params.h;
  Prepare(vast.state, vast.params);
  for (const DeviceForm& form : DeviceForms()) {
    ExpectDeviceStateIsItsRow(form, dense.state, dense.params, 2,
                              std::string(form.row) + ", dense");
    ExpectDeviceStateIsItsRow(form, vast.state, vast.params, 2,
                              std::string(form.row) + ", vast");
  }
}

// A download before any step gives back the upload, every array (the
// densities too, which a three-pass step does not read); so does one
// after Upload replaces the fluid with another of another size, and an
// empty fluid steps to nothing.
TEST_F(SphCuda, DeviceStateDownloadBeforeAnyStepIsTheUpload) {
  const Scene first = RandomScene(61, 700, false);
  // Another fluid in the same container (the device state's parameters).
  State second = first.state;
  second.Resize(300);
  for (float& vx : second.v.x) vx = -vx;
  for (const DeviceForm& form : DeviceForms()) {
    DeviceState device(first.state, first.params, form.form);
    State got;
    device.Download(got);
    EXPECT_TRUE(SameBits(got, first.state)) << form.row;
    device.Download(got);
    EXPECT_TRUE(SameBits(got, first.state)) << form.row << ", again";
    device.Upload(second);
    EXPECT_EQ(device.size(), second.size());
    device.Download(got);
    EXPECT_TRUE(SameBits(got, second)) << form.row << ", replaced";
    device.Upload(State{});
    EXPECT_EQ(device.Step().interactions, 0u) << form.row;
    device.Download(got);
    EXPECT_EQ(got.size(), 0u) << form.row;
    EXPECT_TRUE(device.Step(0).empty());
  }
}

// Bad input: the row's own error, from the constructor and from Upload,
// and an Upload refused leaves the fluid held as it was.
TEST_F(SphCuda, DeviceStateRejectsBadInputAsItsRowDoes) {
  const Scene good = RandomScene(21, 40, true);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<std::function<void(Scene&)>, std::string>>
      spoils = {
          {[&](Scene& s) { s.state.x.y[7] = nan; },
           "particle 7 has a NaN or infinite position"},
          {[](Scene& s) { s.state.mass[5] = 0; }, "particle 5 has a mass"},
          {[](Scene& s) { s.state.x.x[2] = s.params.container.hi[0] + 1; },
           "particle 2 is outside the container"},
          {[](Scene& s) { s.params.h = 0; }, "smoothing length"},
          {[](Scene& s) { s.state.mass.pop_back(); }, "one length"},
          {[](Scene& s) { s.state.density[4] = 0; },
           "particle 4 has a density of t-1"},
      };
  for (const DeviceForm& form : DeviceForms()) {
    const Variant& row = RowOf(form);
    for (const auto& [spoil, words] : spoils) {
      Scene scene = good;
      spoil(scene);
      std::string row_error;
      try {
        State state = scene.state;
        Workspace workspace;
        StepReport report;
        row.run(state, scene.params, workspace, report);
      } catch (const Error& error) {
        row_error = error.what();
      }
      if (row_error.empty()) {
        // The densities of t-1 only where the form reads them.
        EXPECT_NE(form.form, DeviceState::Form::kCollapsed) << words;
        EXPECT_NO_THROW(DeviceState(scene.state, scene.params, form.form))
            << form.row << ": " << words;
        continue;
      }
      EXPECT_NE(row_error.find(words), std::string::npos) << row_error;
      try {
        DeviceState device(scene.state, scene.params, form.form);
        ADD_FAILURE() << form.row << " accepted: " << words;
      } catch (const Error& error) {
        EXPECT_EQ(std::string(error.what()), row_error) << form.row;
      }
      if (scene.params.h != good.params.h) continue;  // Upload keeps params
      DeviceState device(good.state, good.params, form.form);
      try {
        device.Upload(scene.state);
        ADD_FAILURE() << form.row << " uploaded: " << words;
      } catch (const Error& error) {
        EXPECT_EQ(std::string(error.what()), row_error) << form.row;
      }
      State held;
      device.Download(held);
      EXPECT_TRUE(SameBits(held, good.state)) << form.row << ": " << words;
    }
  }
}

// ABlownUpStateIsAnError's fluid: Step throws the row's error, naming the
// same particle, and the device then holds the row's state after it.
TEST_F(SphCuda, DeviceStateBlowUpIsItsRowsError) {
  Scene scene = RandomScene(31, 120, true);
  scene.params.stiffness = 1e9f;
  scene.params.dt = 0.05f;
  for (int k = 0; k < 3; ++k) {
    scene.params.container.lo[k] -= 1000;
    scene.params.container.hi[k] += 1000;
  }
  for (const DeviceForm& form : DeviceForms()) {
    State host = scene.state;
    std::string row_error;
    try {
      Workspace workspace;
      StepReport report;
      RowOf(form).run(host, scene.params, workspace, report);
    } catch (const Error& error) {
      row_error = error.what();
    }
    ASSERT_NE(row_error.find("blew up"), std::string::npos) << row_error;
    DeviceState device(scene.state, scene.params, form.form);
    try {
      device.Step();
      ADD_FAILURE() << form.row << ": a blown-up state was accepted";
    } catch (const Error& error) {
      EXPECT_EQ(std::string(error.what()), row_error) << form.row;
    }
    State held;
    device.Download(held);
    EXPECT_TRUE(SameBits(held, host)) << form.row;
    EXPECT_THROW(device.Download(held, true), Error) << form.row;
  }
}

// Every CUDA row's Traits name a device form, and only a CUDA row has one
// (no device needed: the table alone).
TEST(SphCudaRows, EachHasADeviceFormFromItsTraits) {
  std::size_t cuda_rows = 0;
  for (const Variant& row : Variants()) {
    if (row.backend == Backend::kCuda) {
      ++cuda_rows;
      EXPECT_NO_THROW(DeviceState::FormOf(row)) << row.name;
    } else {
      EXPECT_THROW(DeviceState::FormOf(row), Error) << row.name;
    }
  }
  EXPECT_GT(cuda_rows, 0u);
  EXPECT_EQ(DeviceState::FormOf(*FindVariant(Variants(), "cuda_collapse")),
            DeviceState::Form::kCollapsed);
  EXPECT_EQ(DeviceState::FormOf(*FindVariant(Variants(), "cuda_neighbor")),
            DeviceState::Form::kNeighborList);
}
#else
TEST(SphCuda, DeviceState) { GTEST_SKIP() << "built without CUDA"; }
#endif

TEST(SphTable, EveryRowHasADefinition) {
  for (const Variant& variant : Variants()) {
    EXPECT_NE(variant.traits.update, Update::kUnset) << variant.name;
    EXPECT_NO_THROW(DefinitionOf(variant)) << variant.name;
  }
  // The default Traits name no update, and the check refuses them.
  Variant unnamed = Variants().front();
  unnamed.traits = {};
  EXPECT_THROW(DefinitionOf(unnamed), std::invalid_argument);
}

}  // namespace
}  // namespace adj::sph

#include "algorithms/triplet_collide/triplet_collide.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#if ADJ_HAVE_CUDA
#include "algorithms/common/cuda.h"
#include "algorithms/triplet_collide/device_collider.h"
#endif
#include "algorithms/triplet_collide/tiled_plan.h"
#include "algorithms/triplet_collide/variants.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"
#include "checks/triplet_collide.h"
#include "properties/mesh_generators.h"
#include "properties/variant_cases.h"
#include "scenes/meshes.h"

namespace adj::triplet_collide {
namespace {

using triplet_schedule::Schedule;
using Particles = std::vector<Particle>;
using Triplets = std::vector<Triplet>;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A collision problem: triplets in input order over `real` particles, the
// particles with the 3 dummies appended.
struct Scene {
  Triplets triplets;
  std::size_t real = 0;
  Particles particles;
  std::vector<Weight> weights;
  Shapes shapes;
};

// --- the oracle ----------------------------------------------------------

using checks::triplet_collide::BitwiseDifference;
using checks::triplet_collide::Exactness;
using OracleResult = checks::triplet_collide::Expected;

OracleResult Oracle(const Scene& scene, std::span<const Triplet> order) {
  return checks::triplet_collide::ExpectedOf(order, scene.weights, scene.shapes,
                                             scene.particles);
}

// `got`, the pass over `order` from the scene's particles, against the
// oracle's pass over the same order.
std::string Disagreement(const Scene& scene, std::span<const Triplet> order,
                         const Particles& got, Exactness exactness) {
  return checks::triplet_collide::FirstDifference(
      order, scene.weights, scene.shapes, scene.particles, Oracle(scene, order),
      got, exactness);
}

bool AnyMoved(const Particles& after, const Particles& before) {
  return BitwiseDifference(after, before) != "";
}

// --- generated scenes ----------------------------------------------------

// Uniform in [0, 1) from raw mt19937_64 output (no implementation-defined
// distributions: a seed names a scene on every standard library).
float Uniform(std::mt19937_64& rng) {
  return static_cast<float>(rng() >> 40) * 0x1p-24f;
}
float Uniform(std::mt19937_64& rng, float lo, float hi) {
  return lo + (hi - lo) * Uniform(rng);
}

// Dresses triplets over `positions` as a collision problem, from `seed`:
// z jitter, inverse masses (about 1 in 5 static), a weight table of 5
// entries (the centroid, (1, 0, 0) and three random barycentric ones), and
// 1 to 5 spheres and capsules around particles, so that a good share of the
// points collide; some spheres sit exactly on a particle (the d2 == 0 case
// with weight (1, 0, 0)), some capsules are degenerate (a == b).
Scene Dress(Triplets triplets, const Points& positions, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Scene scene;
  scene.triplets = std::move(triplets);
  scene.real = positions.size();
  scene.particles = ToParticles(positions);
  float lo[3] = {0, 0, 0};
  float hi[3] = {0, 0, 0};
  for (std::size_t i = 0; i < scene.real; ++i) {
    for (int c = 0; c < 3; ++c) {
      lo[c] = i == 0 ? scene.particles[i][c]
                     : std::min(lo[c], scene.particles[i][c]);
      hi[c] = i == 0 ? scene.particles[i][c]
                     : std::max(hi[c], scene.particles[i][c]);
    }
  }
  float size = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  if (!(size > 0)) size = 1;
  for (Particle& p : scene.particles) {
    p[2] += Uniform(rng, -0.05f, 0.05f) * size;
    const std::uint64_t kind = rng() % 10;
    p[3] = kind < 2 ? 0.0f : (kind < 6 ? 1.0f : Uniform(rng, 0.25f, 4.0f));
  }
  scene.weights = {kCentroidWeight, {1.0f, 0.0f, 0.0f, 1.0f}};
  while (scene.weights.size() < 5) {
    const float a = Uniform(rng, 0.05f, 1.0f);
    const float b = Uniform(rng, 0.05f, 1.0f);
    const float c = Uniform(rng, 0.05f, 1.0f);
    const float sum = a + b + c;
    scene.weights.push_back(MakeWeight(a / sum, b / sum, c / sum));
  }
  const auto some_particle = [&]() -> std::array<float, 3> {
    if (scene.real == 0) return {0, 0, 0};
    const Particle& p = scene.particles[rng() % scene.real];
    return {p[0], p[1], p[2]};
  };
  const std::uint64_t spheres = rng() % 4;
  const std::uint64_t capsules = spheres == 0 ? 1 + rng() % 2 : rng() % 3;
  for (std::uint64_t k = 0; k < spheres; ++k) {
    const float radius = Uniform(rng, 0.1f, 0.4f) * size;
    std::array<float, 3> centre = some_particle();
    if (rng() % 4 != 0) {
      for (float& c : centre) c += Uniform(rng, -0.3f, 0.3f) * radius;
    }
    scene.shapes.spheres.push_back({centre, radius});
  }
  for (std::uint64_t k = 0; k < capsules; ++k) {
    const std::array<float, 3> a = some_particle();
    const std::array<float, 3> b = rng() % 4 == 0 ? a : some_particle();
    scene.shapes.capsules.push_back({a, b, Uniform(rng, 0.05f, 0.25f) * size});
  }
  // Static for the schedule's dummies: placed beyond every shape.
  scene.particles.resize(scene.real);
  AppendDummies(scene.particles, scene.shapes);
  return scene;
}

rc::Gen<Scene> MeshScene(std::size_t max_side) {
  return rc::gen::apply(
      [](const testing::MeshSpec& spec, std::uint64_t seed) {
        const Mesh mesh = testing::BuildMesh(spec);
        return Dress(scenes::VirtualParticles(mesh), mesh.positions, seed);
      },
      testing::AnyMeshSpec(max_side), rc::gen::arbitrary<std::uint64_t>());
}

// Triangle meshes' virtual particles (weight 0, the centroid): small ones
// growing with RapidCheck's size, and up to 24 x 24 quads (4608 triangles
// subdivided: atomic_unscheduled stays on one thread) from the first case
// on; or random triplets over up to 40
// particles in the unit cube, with repeated particles inside a triplet and
// weight indices 0..4.
rc::Gen<Scene> AnyScene() {
  return rc::gen::oneOf(
      MeshScene(16), rc::gen::resize(100, MeshScene(24)),
      rc::gen::mapcat(
          rc::gen::inRange<std::size_t>(1, 41), [](std::size_t particles) {
            const auto id = rc::gen::inRange<std::uint32_t>(
                0, static_cast<std::uint32_t>(particles));
            return rc::gen::apply(
                [particles](Triplets triplets, std::uint64_t seed) {
                  std::mt19937_64 rng(seed ^ 0x5eed);
                  Points positions;
                  for (std::size_t i = 0; i < particles; ++i) {
                    positions.PushBack(Uniform(rng), Uniform(rng),
                                       Uniform(rng));
                  }
                  return Dress(std::move(triplets), positions, seed);
                },
                rc::gen::container<Triplets>(rc::gen::construct<Triplet>(
                    id, id, id, rc::gen::inRange<std::uint32_t>(0, 5))),
                rc::gen::arbitrary<std::uint64_t>());
          }));
}

// --- schedules -------------------------------------------------------------

struct NamedSchedule {
  std::string name;
  Schedule schedule;
};

Schedule Scheduled(triplet_schedule::ScheduleFn* scheduler,
                   const Triplets& triplets, std::size_t particles,
                   unsigned width) {
  Schedule out;
  scheduler(triplets, particles, width, out);
  return out;
}

// Every schedule of `scene` that `consumes` accepts: input order (kAny
// only), each simd scheduler at 4 and at the native width, each warp
// scheduler at `warp_width`.
std::vector<NamedSchedule> SchedulesFor(const Scene& scene, Consumes consumes,
                                        unsigned warp_width) {
  std::vector<NamedSchedule> out;
  const bool any = consumes.order == Order::kAny;
  if (any) out.push_back({"input", InputOrder(scene.triplets)});
  if (any || consumes.order == Order::kSimdBatches) {
    std::vector<unsigned> widths = {consumes.width};
    if (any) widths = {4, NativeSimdWidth()};
    for (const auto& scheduler : triplet_schedule::SimdSchedulers()) {
      for (const unsigned width : widths) {
        out.push_back(
            {std::string(scheduler.name) + "@" + std::to_string(width),
             Scheduled(scheduler.run, scene.triplets, scene.real, width)});
      }
    }
  }
  if (any || consumes.order == Order::kWarpSets) {
    for (const auto& scheduler : triplet_schedule::WarpSchedulers()) {
      out.push_back(
          {std::string(scheduler.name) + "@" + std::to_string(warp_width),
           Scheduled(scheduler.run, scene.triplets, scene.real, warp_width)});
    }
  }
  return out;
}

// One schedule the variant accepts, for hand-built scenes.
Schedule ScheduleFor(const Variant& variant, const Triplets& triplets,
                     std::size_t real) {
  const Consumes consumes = ConsumesOf(variant);
  switch (consumes.order) {
    case Order::kSimdBatches:
      return Scheduled(&triplet_schedule::NvClothSimd, triplets, real,
                       consumes.width);
    case Order::kWarpSets:
      return Scheduled(&triplet_schedule::NvClothWarp, triplets, real, 32);
    case Order::kAny:
      break;
  }
  return InputOrder(triplets);
}

// --- every variant against the oracle ---------------------------------------

class TripletCollide : public testing::VariantTest<&triplet_collide::Variants> {
 protected:
  Particles Run(const Schedule& schedule, const Scene& scene) const {
    Particles particles = scene.particles;
    variant().run(schedule, scene.weights, scene.shapes, particles);
    return particles;
  }
};

// The hand-worked scene: particles (0, 0, 0), (3, 0, 0), (0, 3, 0) whose
// centroid with NvCloth's weights (1/3 as a float, times 3, rounds to 1) is
// exactly (1, 1, 0), and f = w_k * s = (1/3) * 3 = 1 for every corner.
Scene HandScene(Shapes shapes, float inv_mass2) {
  Scene scene;
  scene.triplets = {{0, 1, 2, 0}};
  scene.real = 3;
  scene.particles = {{0, 0, 0, 1}, {3, 0, 0, 1}, {0, 3, 0, inv_mass2}};
  scene.weights = {kCentroidWeight};
  scene.shapes = std::move(shapes);
  AppendDummies(scene.particles, scene.shapes);
  return scene;
}

TEST_P(TripletCollide, HandWorkedPushes) {
  struct Case {
    const char* what;
    Shapes shapes;
    float inv_mass2;
    float z;  // every movable particle's z afterwards
  };
  const Case cases[] = {
      // d = (0, 0, 0.5), d2 = 0.25 < 1, k = 1 / 0.5 - 1 = 1: push (0, 0, 0.5).
      {"sphere below", {{{{1, 1, -0.5f}, 1.0f}}, {}}, 1, 0.5f},
      // The point is the centre: d2 = 0, pushed up by the radius.
      {"sphere on the point", {{{{1, 1, 0}, 0.5f}}, {}}, 1, 0.5f},
      // Segment along x at y = 1, z = -0.25: t = 40 / 64 = 0.625, nearest
      // (1, 1, -0.25), d2 = 0.0625 < 0.25, k = 1: push (0, 0, 0.25).
      // Particle 2 is static.
      {"capsule below, one corner static",
       {{}, {{{-4, 1, -0.25f}, {4, 1, -0.25f}, 0.5f}}},
       0,
       0.25f},
      // Both: the pushes from the same point add up.
      {"sphere and capsule",
       {{{{1, 1, -0.5f}, 1.0f}}, {{{-4, 1, -0.25f}, {4, 1, -0.25f}, 0.5f}}},
       1,
       0.75f},
      // Touching the surface is not inside.
      {"sphere touching", {{{{1, 1, -1}, 1.0f}}, {}}, 1, 0.0f},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const Scene scene = HandScene(c.shapes, c.inv_mass2);
    const Particles got =
        Run(ScheduleFor(variant(), scene.triplets, scene.real), scene);
    const float z2 = c.inv_mass2 == 0 ? 0.0f : c.z;
    EXPECT_EQ(got[0], (Particle{0, 0, c.z, 1}));
    EXPECT_EQ(got[1], (Particle{3, 0, c.z, 1}));
    EXPECT_EQ(got[2], (Particle{0, 3, z2, c.inv_mass2}));
    EXPECT_EQ(BitwiseDifference(got, Oracle(scene, scene.triplets).particles),
              "");
  }
}

TEST_P(TripletCollide, EqualsTheOracleOnEverySchedule) {
  const Consumes consumes = ConsumesOf(variant());
  std::size_t cases = 0;
  std::size_t moved = 0;
  EXPECT_TRUE(rc::check("scene", [&] {
    const Scene scene = *AnyScene();
    const unsigned warp_width = *rc::gen::element(16u, 32u);
    ++cases;
    bool any_moved = false;
    for (const NamedSchedule& named :
         SchedulesFor(scene, consumes, warp_width)) {
      const Particles got = Run(named.schedule, scene);
      RC_ASSERT(Disagreement(scene, named.schedule.triplets, got,
                             Exactness::kBitwise) == "");
      any_moved |= AnyMoved(got, scene.particles);
    }
    if (any_moved) ++moved;
  }));
  // Not vacuous: most generated scenes collide and move particles. Only a
  // full run says so: RapidCheck's first cases are tiny, and the sanitizer
  // runs (tools/gpu-check.sh) stop after 8 of them (3 of 8 moved on an H100).
  if (cases >= 50) {
    EXPECT_GE(2 * moved, cases) << moved << " of " << cases << " moved";
  }
}

// The table's run_trusted is the variant's kernel without triplet_collide::
// Check: on checked input it pushes as the oracle does, and it is what `run`
// runs after the check.
TEST_P(TripletCollide, TrustedKernelMatchesOracleOnCheckedInput) {
  ASSERT_NE(variant().run_trusted, nullptr);
  const Consumes consumes = ConsumesOf(variant());
  EXPECT_TRUE(rc::check("scene, checked first", [&] {
    const Scene scene = *AnyScene();
    const unsigned warp_width = *rc::gen::element(16u, 32u);
    for (const NamedSchedule& named :
         SchedulesFor(scene, consumes, warp_width)) {
      Particles got = scene.particles;
      Check(named.schedule, scene.weights, scene.shapes, got);
      variant().run_trusted(named.schedule, scene.weights, scene.shapes, got);
      RC_ASSERT(Disagreement(scene, named.schedule.triplets, got,
                             Exactness::kBitwise) == "");
    }
  }));
}

// The benchmark's kind of scene at a realistic size: a 64 x 64 cloth with
// shuffled ids and triangles, pushed by the shapes Dress places, on every
// schedule the variant takes. atomic_unscheduled forks here on machines with
// two cores or more; then its result is order-dependent and held to the
// stated tolerance (see the AtomicUnscheduled tests).
TEST_P(TripletCollide, EqualsTheOracleOnAShuffledGrid) {
  const Mesh grid = scenes::Shuffled(
      scenes::ClothGrid(64, 64, scenes::Diagonals::kUniform), 3);
  const Scene scene =
      Dress(scenes::VirtualParticles(grid), grid.positions, 2024);
  const Exactness exactness =
      checks::triplet_collide::ExactnessOf(variant(), scene.triplets.size());
  for (const NamedSchedule& named :
       SchedulesFor(scene, ConsumesOf(variant()), 32)) {
    SCOPED_TRACE(named.name);
    EXPECT_GT(Oracle(scene, named.schedule.triplets).collided,
              scene.triplets.size() / 20);
    const Particles got = Run(named.schedule, scene);
    EXPECT_EQ(Disagreement(scene, named.schedule.triplets, got, exactness), "");
    EXPECT_TRUE(AnyMoved(got, scene.particles));
  }
}

TEST_P(TripletCollide, EmptyScheduleChangesNothing) {
  const Scene scene = HandScene({{{{1, 1, 0}, 5.0f}}, {}}, 1);
  const Particles got = Run(ScheduleFor(variant(), {}, scene.real), scene);
  EXPECT_EQ(BitwiseDifference(got, scene.particles), "");
}

// A bad input throws triplet_collide::Error and writes nothing.
TEST_P(TripletCollide, RejectsBadInputAndWritesNothing) {
  const Mesh grid = scenes::ClothGrid(4, 4, scenes::Diagonals::kUniform);
  const Scene good =
      Dress(scenes::VirtualParticles(grid), grid.positions, 1234);
  const Schedule schedule = ScheduleFor(variant(), good.triplets, good.real);
  const auto expect_error = [&](const Scene& scene, const Schedule& s,
                                const std::string& fragment) {
    Particles particles = scene.particles;
    try {
      variant().run(s, scene.weights, scene.shapes, particles);
      ADD_FAILURE() << "no error; expected one about '" << fragment << "'";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << error.what();
    }
    EXPECT_EQ(BitwiseDifference(particles, scene.particles), "");
  };
  {
    Schedule bad = schedule;
    bad.triplets[0][1] = static_cast<std::uint32_t>(good.real + 3);
    expect_error(good, bad, "triplet 0");
  }
  {
    Schedule bad = schedule;
    bad.triplets.back()[3] = static_cast<std::uint32_t>(good.weights.size());
    expect_error(good, bad, "names weight");
  }
  for (const float value : {kNaN, kInf, -kInf}) {
    Scene bad = good;
    bad.particles[7][1] = value;
    expect_error(bad, schedule, "particle 7");
    bad = good;
    bad.weights[0][3] = value;
    expect_error(bad, schedule, "weight 0");
    bad = good;
    bad.shapes.spheres.push_back({{0, value, 0}, 1});
    expect_error(bad, schedule, "sphere");
    bad = good;
    bad.shapes.capsules.push_back({{0, 0, 0}, {0, 0, 1}, value});
    expect_error(bad, schedule, "capsule");
  }
  {
    Scene bad = good;
    bad.shapes.spheres.push_back({{0, 0, 0}, -1});
    expect_error(bad, schedule, "negative radius");
  }
  {
    Scene bad = good;
    bad.particles[good.real + 1][3] = 1;
    expect_error(bad, schedule, "dummy particle");
  }
  {
    Scene bad = good;
    bad.particles.resize(2);
    expect_error(bad, ScheduleFor(variant(), {}, 0), "dummy particles");
  }
}

// The consumers that need a schedule of one kind (one that takes any
// order cannot be handed a wrong one).
class OrderedTripletCollide : public TripletCollide {};

// Each consumer refuses a schedule it cannot run, before writing.
TEST_P(OrderedTripletCollide, RejectsAScheduleOfTheWrongKind) {
  const Consumes consumes = ConsumesOf(variant());
  const Mesh grid = scenes::ClothGrid(4, 4, scenes::Diagonals::kUniform);
  const Scene scene = Dress(scenes::VirtualParticles(grid), grid.positions, 99);
  std::vector<Schedule> wrong = {InputOrder(scene.triplets)};
  if (consumes.order == Order::kSimdBatches) {
    const unsigned other = consumes.width == 4 ? 8 : 2 * consumes.width;
    wrong.push_back(Scheduled(&triplet_schedule::NvClothSimd, scene.triplets,
                              scene.real, other));
    wrong.push_back(Scheduled(&triplet_schedule::NvClothWarp, scene.triplets,
                              scene.real, 32));
    // The right width, but set sizes that do not match the padding.
    Schedule tampered = Scheduled(&triplet_schedule::NvClothSimd,
                                  scene.triplets, scene.real, consumes.width);
    tampered.set_sizes.push_back(1);
    wrong.push_back(tampered);
  } else {
    wrong.push_back(Scheduled(&triplet_schedule::NvClothSimd, scene.triplets,
                              scene.real, 4));
  }
  for (const Schedule& schedule : wrong) {
    Particles particles = scene.particles;
    EXPECT_THROW(
        variant().run(schedule, scene.weights, scene.shapes, particles), Error)
        << "width " << schedule.width;
    EXPECT_EQ(BitwiseDifference(particles, scene.particles), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, TripletCollide,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);
INSTANTIATE_TEST_SUITE_P(Variants, OrderedTripletCollide,
                         ::testing::ValuesIn(testing::CasesWhere(
                             Variants(),
                             [](const Variant& variant) {
                               return ConsumesOf(variant).order != Order::kAny;
                             })),
                         testing::CaseName);

// --- atomic_unscheduled on several threads ----------------------------------

// On one thread it is the serial pass over the order it is given.
TEST(AtomicUnscheduled, OneThreadIsTheOraclePassBitForBit) {
  EXPECT_TRUE(rc::check("scene", [] {
    const Scene scene = *AnyScene();
    for (const Schedule& schedule :
         {InputOrder(scene.triplets),
          Scheduled(&triplet_schedule::NvClothWarp, scene.triplets, scene.real,
                    32)}) {
      Particles got = scene.particles;
      AtomicUnscheduledCollideTuned(schedule, scene.weights, scene.shapes, got,
                                    1, 1);
      RC_ASSERT(BitwiseDifference(
                    got, Oracle(scene, schedule.triplets).particles) == "");
    }
  }));
}

// Triplets that share no movable particle do not depend on each other, so
// any interleaving gives the sequential result: exact on several threads.
// Static hub particles are shared by many of them (read, never written).
TEST(AtomicUnscheduled, IndependentTripletsAreExactOnSeveralThreads) {
  std::size_t collided = 0;
  std::size_t cases = 0;
  EXPECT_TRUE(rc::check("scene", [&] {
    const std::size_t count = *rc::gen::inRange<std::size_t>(1, 600);
    const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
    const int threads = *rc::gen::inRange(2, 5);
    std::mt19937_64 rng(seed);
    constexpr std::uint32_t kHubs = 4;
    Points positions;
    for (std::uint32_t h = 0; h < kHubs; ++h) {
      positions.PushBack(Uniform(rng), Uniform(rng), 0);
    }
    Triplets triplets;
    for (std::size_t i = 0; i < count; ++i) {
      const auto base = static_cast<std::uint32_t>(positions.size());
      for (int k = 0; k < 3; ++k) {
        positions.PushBack(Uniform(rng), Uniform(rng), Uniform(rng) * 0.1f);
      }
      Triplet t = {base, base + 1, base + 2,
                   static_cast<std::uint32_t>(rng() % 5)};
      if (rng() % 4 == 0) t[1] = t[0];  // repeated
      if (rng() % 3 == 0) t[2] = static_cast<std::uint32_t>(rng() % kHubs);
      triplets.push_back(t);
    }
    Scene scene = Dress(triplets, positions, seed);
    for (std::uint32_t h = 0; h < kHubs; ++h) scene.particles[h][3] = 0;
    const OracleResult expected = Oracle(scene, scene.triplets);
    Particles got = scene.particles;
    AtomicUnscheduledCollideTuned(InputOrder(scene.triplets), scene.weights,
                                  scene.shapes, got, threads, 1);
    RC_ASSERT(BitwiseDifference(got, expected.particles) == "");
    ++cases;
    collided += expected.collided > 0 ? 1 : 0;
  }));
  EXPECT_GE(2 * collided, cases);
}

// Heavy contention where the pushes do not depend on the order: every
// particle on the z axis, every point exactly on the axis of a vertical
// capsule (0, 0, 0)-(0, 0, 4096), so the nearest point is the point itself
// (t = z / 4096 is exact), d2 = 0 and each push is (0, 0, r) whatever the
// interleaving. With NvCloth's centroid weights f = (1/3) * 3 = 1 and
// r = 2^-10, every add is exact, so each particle must end at
// z0 + (its slots) * 2^-10 exactly: a lost update (a non-atomic
// read-modify-write) shows.
TEST(AtomicUnscheduled, ContendedParticlesLoseNoUpdate) {
  constexpr std::uint32_t kParticles = 12;
  constexpr std::size_t kTriplets = 60000;
  constexpr float kRadius = 0x1p-10f;
  std::mt19937_64 rng(7);
  Scene scene;
  scene.real = kParticles;
  for (std::uint32_t i = 0; i < kParticles; ++i) {
    scene.particles.push_back({0, 0, static_cast<float>(rng() % 1024), 1});
  }
  std::vector<double> expected_z(kParticles);
  for (std::uint32_t i = 0; i < kParticles; ++i) {
    expected_z[i] = scene.particles[i][2];
  }
  for (std::size_t i = 0; i < kTriplets; ++i) {
    const Triplet t = {static_cast<std::uint32_t>(rng() % kParticles),
                       static_cast<std::uint32_t>(rng() % kParticles),
                       static_cast<std::uint32_t>(rng() % kParticles), 0};
    scene.triplets.push_back(t);
    for (int k = 0; k < 3; ++k) expected_z[t[k]] += kRadius;
  }
  scene.weights = {kCentroidWeight};
  scene.shapes.capsules = {{{0, 0, 0}, {0, 0, 4096}, kRadius}};
  AppendDummies(scene.particles, scene.shapes);
  const Particles oracle = Oracle(scene, scene.triplets).particles;
  for (std::uint32_t i = 0; i < kParticles; ++i) {
    ASSERT_EQ(oracle[i][2], expected_z[i]) << "particle " << i;
  }
  for (const int threads : {2, 4, 8}) {
    Particles got = scene.particles;
    AtomicUnscheduledCollideTuned(InputOrder(scene.triplets), scene.weights,
                                  scene.shapes, got, threads, 1);
    EXPECT_EQ(BitwiseDifference(got, oracle), "") << threads << " threads";
  }
}

// With shared particles the result depends on the interleaving; the
// stated tolerance is reference::CheckInterleavingBound (each coordinate
// within twice the longest possible sum of a particle's pushes of the
// oracle's input-order result; static particles and particles in no
// triplet exact): sound, loose. The exact tests above carry the precision.
TEST(AtomicUnscheduled, SharedParticlesStayWithinTheStatedTolerance) {
  std::size_t moved = 0;
  std::size_t cases = 0;
  EXPECT_TRUE(rc::check("scene", [&] {
    const Scene scene = *AnyScene();
    const int threads = *rc::gen::inRange(2, 5);
    Particles got = scene.particles;
    AtomicUnscheduledCollideTuned(InputOrder(scene.triplets), scene.weights,
                                  scene.shapes, got, threads, 1);
    RC_ASSERT(Disagreement(scene, scene.triplets, got,
                           Exactness::kWithinInterleavingBound) == "");
    ++cases;
    moved += AnyMoved(got, scene.particles) ? 1 : 0;
  }));
  EXPECT_GE(2 * moved, cases);
}

// The tolerance is not vacuous: a push lost, doubled or sent to another
// particle breaks it.
TEST(AtomicUnscheduled, TheStatedToleranceCatchesMisplacedPushes) {
  const Scene scene = HandScene({{{{1, 1, -0.5f}, 1.0f}}, {}}, 1);
  const Particles expected = Oracle(scene, scene.triplets).particles;
  const auto check = [&](const Particles& got) {
    return Disagreement(scene, scene.triplets, got,
                        Exactness::kWithinInterleavingBound);
  };
  EXPECT_EQ(check(expected), "");
  Particles far = expected;
  far[0][2] += 5;  // B = 1 * 1 = 1 per slot: 5 is past 2 B
  EXPECT_NE(check(far), "");
  Particles misdirected = expected;
  misdirected[3][2] += 0.5f;  // a dummy (static) moved
  EXPECT_NE(check(misdirected), "");
}

TEST(AtomicUnscheduled, ThreadsGrowWithTheTriplets) {
  EXPECT_EQ(AtomicUnscheduledThreads(0), 1);
  EXPECT_EQ(AtomicUnscheduledThreads(100), 1);
  EXPECT_GE(AtomicUnscheduledThreads(std::size_t{1} << 24), 1);
}

// --- contract helpers
// ---------------------------------------------------------

// cuda_shared's documented limit: particles that do not fit one block's
// shared memory (16 bytes each; 227 KiB on an H100) are TooLarge, a
// triplet_collide::Error that `adjacent verify` reports as skipped, and
// nothing is written.
TEST(TripletCollideContract, CudaSharedRejectsMoreParticlesThanSharedMemory) {
  const auto table = Variants();
  const auto shared = std::find_if(table.begin(), table.end(), [](auto& v) {
    return std::string(v.name) == "cuda_shared";
  });
  if (shared == table.end()) GTEST_SKIP() << "no GPU: built without CUDA";
  const Availability availability = CanRun(*shared);
  if (!availability.available) GTEST_SKIP() << availability.reason;
  const Mesh grid = scenes::ClothGrid(150, 150, scenes::Diagonals::kUniform);
  const Scene scene = Dress(scenes::VirtualParticles(grid), grid.positions, 77);
  const Schedule schedule = ScheduleFor(*shared, scene.triplets, scene.real);
  Particles particles = scene.particles;
  EXPECT_THROW(shared->run(schedule, scene.weights, scene.shapes, particles),
               TooLarge);
  EXPECT_EQ(BitwiseDifference(particles, scene.particles), "");
}

// The device entries on a resident scene (DeviceCollider, what benchmarks
// time with CUDA events) push as the oracle does, bit for bit, with either
// kernel, twice from the same particles.
TEST(TripletCollideCuda, DeviceColliderMatchesTheOracle) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  const Mesh grid = scenes::Shuffled(
      scenes::ClothGrid(40, 40, scenes::Diagonals::kUniform), 3);
  const Scene scene = Dress(scenes::VirtualParticles(grid), grid.positions, 9);
  const Schedule schedule =
      Scheduled(&triplet_schedule::NvClothWarp, scene.triplets, scene.real, 32);
  Check(schedule, scene.weights, scene.shapes, scene.particles);
  DeviceCollider collider(schedule, scene.weights, scene.shapes,
                          scene.particles);
  for (const Variant& variant : Variants()) {
    if (variant.backend != Backend::kCuda) continue;
    for (int call = 0; call < 2; ++call) {
      EXPECT_GE(collider.TimePass(variant), 0.0);
      const Particles got = collider.Particles();
      EXPECT_EQ(
          Disagreement(scene, schedule.triplets, got, Exactness::kBitwise), "")
          << variant.name << ", call " << call;
      EXPECT_TRUE(AnyMoved(got, scene.particles));
    }
  }
#endif
}

// --- cuda_shared_tiled's plan and large cloths ------------------------------

// The first problem of `plan` for `schedule` ("" if none): tiles cover each
// set in order from warp boundaries, within the block's threads and slots;
// a staged particle's slot is on its bank (p mod 32) and unique in its
// tile; every triplet's slots name its own particles.
std::string PlanProblem(const Schedule& schedule, const tiled::Plan& plan) {
  std::ostringstream problem;
  if (plan.triplets.size() != schedule.triplets.size() ||
      plan.set_first_tile.size() != schedule.set_sizes.size() + 1 ||
      plan.set_slots.size() != schedule.set_sizes.size()) {
    return "plan sizes do not match the schedule";
  }
  std::uint32_t start = 0;
  for (std::size_t s = 0; s < schedule.set_sizes.size(); ++s) {
    std::uint32_t next = start;
    std::uint32_t most_slots = 0;
    for (std::uint32_t t = plan.set_first_tile[s];
         t < plan.set_first_tile[s + 1]; ++t) {
      const tiled::Tile& tile = plan.tiles[t];
      if (tile.first_triplet != next || (next - start) % tiled::kBanks != 0 ||
          tile.triplets == 0 || tile.triplets > tiled::kTileThreads ||
          tile.slots % tiled::kBanks != 0 || tile.slots > tiled::kTileSlots ||
          tile.first_slot + tile.slots > plan.slot_particles.size()) {
        problem << "set " << s << ", tile " << t << ": bad bounds";
        return problem.str();
      }
      std::vector<std::uint32_t> seen;
      for (std::uint32_t i = 0; i < tile.slots; ++i) {
        const std::uint32_t p = plan.slot_particles[tile.first_slot + i];
        if (p == tiled::kNoParticle) continue;
        if (p % tiled::kBanks != i % tiled::kBanks) {
          problem << "tile " << t << ": particle " << p << " at slot " << i;
          return problem.str();
        }
        seen.push_back(p);
      }
      std::sort(seen.begin(), seen.end());
      if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) {
        problem << "tile " << t << " stages a particle twice";
        return problem.str();
      }
      for (std::uint32_t i = next; i < next + tile.triplets; ++i) {
        for (int k = 0; k < 3; ++k) {
          const std::uint32_t slot = plan.triplets[i][k];
          if (slot >= tile.slots ||
              plan.slot_particles[tile.first_slot + slot] !=
                  schedule.triplets[i][k] ||
              plan.triplets[i][3] != schedule.triplets[i][3]) {
            problem << "triplet " << i << " slot " << k << " is misplaced";
            return problem.str();
          }
        }
      }
      next += tile.triplets;
      most_slots = std::max(most_slots, tile.slots);
    }
    if (next != start + schedule.set_sizes[s] ||
        most_slots != plan.set_slots[s]) {
      problem << "set " << s << " is not covered by its tiles";
      return problem.str();
    }
    start = next;
  }
  return "";
}

// The plan's pass on the CPU: each tile staged into an array of its slots,
// run by serial on its slot triplets, written back, tile after tile. The
// kernel does the same in shared memory, the tiles of a set at once.
Particles RunPlanOnTheHost(const tiled::Plan& plan, const Scene& scene) {
  Particles particles = scene.particles;
  for (const tiled::Tile& tile : plan.tiles) {
    Particles staged(tile.slots, Particle{0, 0, 0, 0});
    for (std::uint32_t i = 0; i < tile.slots; ++i) {
      const std::uint32_t p = plan.slot_particles[tile.first_slot + i];
      if (p != tiled::kNoParticle) staged[i] = particles[p];
    }
    Schedule part;
    part.triplets.assign(
        plan.triplets.begin() + tile.first_triplet,
        plan.triplets.begin() + tile.first_triplet + tile.triplets);
    part.set_sizes = {tile.triplets};
    SerialCollideTrusted(part, scene.weights, scene.shapes, staged);
    for (std::uint32_t i = 0; i < tile.slots; ++i) {
      const std::uint32_t p = plan.slot_particles[tile.first_slot + i];
      if (p != tiled::kNoParticle) particles[p] = staged[i];
    }
  }
  return particles;
}

TEST(TripletCollideTiledPlan, TilesKeepTheBanksAndRunAsTheOracle) {
  EXPECT_TRUE(rc::check("scene", [] {
    const Scene scene = *AnyScene();
    const unsigned warp_width = *rc::gen::element(16u, 32u);
    for (const NamedSchedule& named :
         SchedulesFor(scene, {Order::kWarpSets, 0}, warp_width)) {
      const tiled::Plan plan =
          tiled::MakePlan(named.schedule, scene.particles.size());
      RC_ASSERT(PlanProblem(named.schedule, plan) == "");
      RC_ASSERT(Disagreement(scene, named.schedule.triplets,
                             RunPlanOnTheHost(plan, scene),
                             Exactness::kBitwise) == "");
    }
  }));
}

// The 128^2 grid (16641 particles, 266 KB as SoA: more than a block's
// shared memory on an H100 or H200) as cuda_shared_tiled's tests take it.
Scene LargeGrid(bool permuted) {
  const Mesh grid = scenes::ClothGrid(128, 128, scenes::Diagonals::kUniform);
  const Mesh ordered = permuted ? scenes::Shuffled(grid, 5) : grid;
  return Dress(scenes::VirtualParticles(ordered), ordered.positions, 128);
}

TEST(TripletCollideTiledPlan, LargeCloths) {
  for (const bool permuted : {false, true}) {
    const Scene scene = LargeGrid(permuted);
    for (const NamedSchedule& named :
         SchedulesFor(scene, {Order::kWarpSets, 0}, 32)) {
      SCOPED_TRACE(named.name + (permuted ? ", permuted" : ", natural"));
      const tiled::Plan plan =
          tiled::MakePlan(named.schedule, scene.particles.size());
      EXPECT_EQ(PlanProblem(named.schedule, plan), "");
      EXPECT_GT(plan.tiles.size(), 4 * named.schedule.set_sizes.size());
      const Particles got = RunPlanOnTheHost(plan, scene);
      EXPECT_EQ(Disagreement(scene, named.schedule.triplets, got,
                             Exactness::kBitwise),
                "");
      EXPECT_TRUE(AnyMoved(got, scene.particles));
    }
  }
}

// cuda_shared_tiled on a cloth cuda_shared refuses: bit for bit the
// oracle's pass, as shipped and on the resident scene.
TEST(TripletCollideCuda, SharedTiledTakesClothsLargerThanABlock) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  const auto table = Variants();
  const auto variant = [&](const char* name) {
    return *std::find_if(table.begin(), table.end(),
                         [&](auto& v) { return std::string(v.name) == name; });
  };
  const Variant& tiled = variant("cuda_shared_tiled");
  const Variant& shared = variant("cuda_shared");
  for (const bool permuted : {false, true}) {
    const Scene scene = LargeGrid(permuted);
    for (triplet_schedule::ScheduleFn* scheduler :
         {&triplet_schedule::NvClothWarp,
          FindVariant(triplet_schedule::WarpSchedulers(), "bfs_walk_warp")
              ->run}) {
      SCOPED_TRACE(permuted ? "permuted" : "natural");
      const Schedule schedule =
          Scheduled(scheduler, scene.triplets, scene.real, 32);
      Particles refused = scene.particles;
      EXPECT_THROW(shared.run(schedule, scene.weights, scene.shapes, refused),
                   TooLarge);
      Particles got = scene.particles;
      tiled.run(schedule, scene.weights, scene.shapes, got);
      EXPECT_EQ(
          Disagreement(scene, schedule.triplets, got, Exactness::kBitwise), "");
      EXPECT_TRUE(AnyMoved(got, scene.particles));
      DeviceCollider collider(schedule, scene.weights, scene.shapes,
                              scene.particles);
      EXPECT_GE(
          collider.TimePass(*FindVariant(Variants(), "cuda_shared_tiled")),
          0.0);
      EXPECT_EQ(Disagreement(scene, schedule.triplets, collider.Particles(),
                             Exactness::kBitwise),
                "");
    }
  }
#endif
}

TEST(TripletCollideContract, DummiesLieBeyondEveryShape) {
  Particles particles = {{0, 0, 0, 1}, {-7, 2, 1, 1}};
  const Shapes shapes = {{{{100, 0, 0}, 3}}, {{{0, -50, 0}, {0, 0, 9}, 2}}};
  AppendDummies(particles, shapes);
  ASSERT_EQ(particles.size(), 5u);
  for (std::size_t i = 2; i < 5; ++i) {
    EXPECT_EQ(particles[i][3], 0.0f);
    EXPECT_GT(particles[i][0], 103.0f);
    EXPECT_EQ(particles[i], particles[2]);
  }
  Particles huge = {{3e38f, 0, 0, 1}};
  EXPECT_THROW(AppendDummies(huge, {}), Error);
}

TEST(TripletCollideContract, WeightsAndInputOrder) {
  EXPECT_EQ(MakeWeight(1, 0, 0), (Weight{1, 0, 0, 1}));
  EXPECT_EQ(MakeWeight(0.5f, 0.5f, 0), (Weight{0.5f, 0.5f, 0, 2}));
  const Triplets triplets = {{0, 1, 2, 0}, {2, 3, 4, 0}};
  const Schedule input = InputOrder(triplets);
  EXPECT_EQ(input.triplets, triplets);
  EXPECT_EQ(input.set_sizes, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(input.padding, 0u);
  EXPECT_TRUE(InputOrder({}).set_sizes.empty());
}

TEST(TripletCollideContract, NativeWidthFollowsTheTarget) {
  for (const std::int64_t target : simd::RunnableTargets()) {
    simd::ForceTarget(target);
    const unsigned width = NativeSimdWidth();
    EXPECT_TRUE(width == 1 || width == 4 || width == 8 || width == 16)
        << simd::TargetName(target) << ": " << width;
  }
  simd::ForceTarget(0);
}

}  // namespace
}  // namespace adj::triplet_collide

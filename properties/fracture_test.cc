#include "algorithms/fracture/fracture.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/fracture/variants.h"
#include "checks/fracture.h"
#include "properties/variant_cases.h"
#include "scenes/solids.h"

namespace adj::fracture {
namespace {

using checks::fracture::FirstBrokenInvariant;
using checks::fracture::FirstDifference;
using checks::fracture::MergeChoice;
using Words = std::vector<std::uint32_t>;

State StateOf(const scenes::Voxels& voxels, const Csr& clusters) {
  std::vector<Coord> coords;
  for (const auto& c : voxels.cells) coords.push_back({c[0], c[1], c[2]});
  return MakeState({voxels.grid[0], voxels.grid[1], voxels.grid[2]},
                   std::move(coords), clusters);
}

Csr Rows(const std::vector<Words>& rows) {
  Csr csr;
  for (const Words& row : rows) {
    csr.indices.insert(csr.indices.end(), row.begin(), row.end());
    csr.offsets.push_back(static_cast<std::uint32_t>(csr.indices.size()));
  }
  return csr;
}

Points RestPositions(const State& state) {
  Points points;
  for (const Coord& c : state.particle_coord) {
    points.PushBack(static_cast<float>(c.x), static_cast<float>(c.y),
                    static_cast<float>(c.z));
  }
  return points;
}

MergeChoice ChoiceOf(const Variant& variant) {
  return checks::fracture::MergeChoiceOf(variant);
}

// Every row names how it merges: the default Traits name nothing, and the
// check refuses them, so a new row cannot be judged by a guess.
TEST(FractureTable, EveryRowNamesItsMerge) {
  for (const Variant& variant : Variants()) {
    EXPECT_NE(variant.traits.merge, Merge::kUnset) << variant.name;
    EXPECT_NO_THROW(ChoiceOf(variant)) << variant.name;
  }
  Variant unnamed = Variants().front();
  unnamed.traits = {};
  EXPECT_THROW(ChoiceOf(unnamed), std::invalid_argument);
}

// The hand-checked layout (z = 0):
//   y=2 . . 6 . .
//   y=1 . . 5 . .
//   y=0 0 1 2 3 4
// clusters A (slot 0) = {0, 1}, B (slot 1) = {3, 4}, C (slot 2) =
// {1, 2, 3, 5, 6}. Particle 6 moved away: 6 and 5 are removed, C's
// survivors {1, 2, 3} are one new cluster c of 3. The search from 1 meets
// particle 0, whose list is {A}: 2 + 3 < 6, so c merges into A. The printed
// search goes on: from 2 it meets 1 ({A}, now 5 + 3 >= 6) and 3 ({B}: 2 + 3
// < 6), so c merges into B as well.
struct HandLayout {
  State state;
  Points positions;
  Params params;
};

HandLayout Hand() {
  HandLayout hand;
  hand.state = MakeState({5, 3, 1},
                         {{0, 0, 0},
                          {1, 0, 0},
                          {2, 0, 0},
                          {3, 0, 0},
                          {4, 0, 0},
                          {2, 1, 0},
                          {2, 2, 0}},
                         Rows({{0, 1}, {3, 4}, {1, 2, 3, 5, 6}}));
  hand.positions = RestPositions(hand.state);
  hand.positions.y[6] += 10;
  hand.params.damage_distance = 1.5f;
  hand.params.max_cluster_size = 6;
  hand.params.min_cluster_size = 2;
  return hand;
}

class Fracture : public testing::VariantTest<&Variants> {
 protected:
  std::unique_ptr<Simulation> Start(const State& state, const Params& params) {
    return variant().run(state, params);
  }
};

TEST_P(Fracture, HandCheckedMerge) {
  for (int k = 0; k < 4; ++k) {
    HandLayout hand = Hand();
    hand.params.belong = static_cast<BelongKind>(k);
    SCOPED_TRACE(std::string(BelongKindName(hand.params.belong)));
    auto simulation = Start(hand.state, hand.params);
    FrameReport report;
    simulation->Step(hand.positions, report);
    const State after = simulation->Snapshot();
    EXPECT_EQ(report.removed, 2u);
    EXPECT_EQ(report.influenced, 1u);
    EXPECT_EQ(report.new_clusters, 1u);
    EXPECT_EQ(report.merged, 1u);
    EXPECT_EQ(report.inserted, 0u);
    EXPECT_EQ(after.node_is_particle,
              (std::vector<std::uint8_t>{1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0, 0}));
    ASSERT_EQ(after.clusters.valid, (std::vector<std::uint8_t>{1, 1, 0}));
    EXPECT_EQ(after.clusters.slots[0].particles, (Words{0, 1, 2, 3}));
    const Csr belong = simulation->BelongLists();
    if (variant().name == "serial_printed") {
      EXPECT_EQ(report.merges, Rows({{0, 1}}));
      EXPECT_EQ(after.clusters.slots[1].particles, (Words{3, 4, 1, 2}));
      EXPECT_EQ(belong, Rows({{0}, {0, 1}, {0, 1}, {0, 1}, {1}, {}, {}}));
    } else {
      EXPECT_EQ(report.merges, Rows({{0}}));
      EXPECT_EQ(after.clusters.slots[1].particles, (Words{3, 4}));
      EXPECT_EQ(belong, Rows({{0}, {0}, {0}, {0, 1}, {1}, {}, {}}));
    }
    EXPECT_EQ(after.clusters.slots[0].rest_local,
              (std::vector<Vec3>{
                  {-1.5f, 0, 0}, {-0.5f, 0, 0}, {0.5f, 0, 0}, {1.5f, 0, 0}}));
    EXPECT_EQ(FirstDifference(hand.state, hand.positions, hand.params,
                              ChoiceOf(variant()), after, belong, report),
              "");
  }
}

// With A = {0, 1, 2} and B = {2, 3, 4}, c (3) fits neither (3 + 3 = 6), so
// it is inserted into C's freed slot 2 and, below min 4, grows
// breadth-first: member 1's first free neighbour is 0.
TEST_P(Fracture, HandCheckedInsertAndBreadthFirstGrowth) {
  HandLayout hand = Hand();
  hand.state = MakeState(hand.state.grid, hand.state.particle_coord,
                         Rows({{0, 1, 2}, {2, 3, 4}, {1, 2, 3, 5, 6}}));
  hand.params.min_cluster_size = 4;
  hand.params.expansion = Expansion::kBreadthFirst;
  auto simulation = Start(hand.state, hand.params);
  FrameReport report;
  simulation->Step(hand.positions, report);
  const State after = simulation->Snapshot();
  EXPECT_EQ(report.merges, Rows({{}}));
  EXPECT_EQ(report.inserted, 1u);
  EXPECT_EQ(report.expanded, 1u);
  ASSERT_EQ(after.clusters.valid, (std::vector<std::uint8_t>{1, 1, 1}));
  EXPECT_EQ(after.clusters.slots[2].particles, (Words{1, 2, 3, 0}));
  EXPECT_EQ(after.frame, 1u);
  EXPECT_EQ(simulation->BelongLists(),
            Rows({{0, 2}, {0, 2}, {0, 1, 2}, {1, 2}, {1}, {}, {}}));
}

TEST_P(Fracture, NoDamageChangesNothingButTheFrameCounter) {
  HandLayout hand = Hand();
  auto simulation = Start(hand.state, hand.params);
  FrameReport report;
  simulation->Step(RestPositions(hand.state), report);
  State expected = hand.state;
  expected.frame = 1;
  EXPECT_EQ(simulation->Snapshot(), expected);
  EXPECT_EQ(report.removed, 0u);
  EXPECT_EQ(report.merges.rows(), 0u);
}

TEST_P(Fracture, RejectsBadInput) {
  const HandLayout hand = Hand();
  const auto rejects = [&](State state, Params params, const char* what) {
    SCOPED_TRACE(what);
    EXPECT_THROW(Start(state, params), Error);
  };
  {
    State empty = hand.state;
    empty.particle_coord.clear();
    empty.clusters = {};
    empty.node_is_particle.assign(15, 0);
    rejects(empty, hand.params, "empty object");
  }
  {
    State missing = hand.state;
    missing.clusters.slots[0].particles = {0, 7};
    rejects(missing, hand.params, "a cluster naming a missing particle");
  }
  {
    State removed = hand.state;
    removed.node_is_particle[0] = 0;
    rejects(removed, hand.params, "a cluster naming a removed particle");
  }
  {
    State twice = hand.state;
    twice.clusters.slots[0].particles = {0, 1, 0};
    twice.clusters.slots[0].rest_local.push_back({});
    rejects(twice, hand.params, "a particle twice in a cluster");
  }
  {
    State apart = hand.state;
    apart.clusters.slots[0].particles = {0, 2};
    apart.clusters.slots[0].rest_local = RestLocal(apart, Words{0, 2});
    rejects(apart, hand.params, "a disconnected cluster");
  }
  {
    State local = hand.state;
    local.clusters.slots[0].rest_local[0].x += 1;
    rejects(local, hand.params, "rest local positions not the members'");
  }
  {
    Params small = hand.params;
    small.max_cluster_size = 5;
    small.min_cluster_size = 2;
    rejects(hand.state, small, "max_cluster_size not above a cluster's size");
  }
  {
    Params bad = hand.params;
    bad.min_cluster_size = bad.max_cluster_size;
    rejects(hand.state, bad, "min_cluster_size >= max_cluster_size");
    bad = hand.params;
    bad.damage_distance = std::numeric_limits<float>::quiet_NaN();
    rejects(hand.state, bad, "NaN damage distance");
    bad.damage_distance = 0;
    rejects(hand.state, bad, "zero damage distance");
    bad = hand.params;
    bad.components = "no_such_variant";
    rejects(hand.state, bad, "unknown components variant");
  }
  {
    State huge = hand.state;
    huge.grid = {2048, 2048, 1024};
    rejects(huge, hand.params, "a grid of 2^32 nodes");
    EXPECT_THROW(MakeState({2048, 2048, 1024}, {}, Csr{}), Error);
  }
  {
    State outside = hand.state;
    outside.particle_coord[0] = {5, 0, 0};
    rejects(outside, hand.params, "a particle outside the grid");
    State shared = hand.state;
    shared.particle_coord[4] = {3, 0, 0};
    rejects(shared, hand.params, "two particles at one node");
  }
  {
    State attribute = hand.state;
    attribute.clusters.slots[1].stiffness = std::nanf("");
    rejects(attribute, hand.params, "a NaN stiffness");
  }
  auto simulation = Start(hand.state, hand.params);
  FrameReport report;
  Points nan = hand.positions;
  nan.x[3] = std::numeric_limits<float>::infinity();
  EXPECT_THROW(simulation->Step(nan, report), Error);
  Points short_positions = hand.positions;
  short_positions.Resize(3);
  EXPECT_THROW(simulation->Step(short_positions, report), Error);
  // A removed particle's position is never read.
  simulation->Step(hand.positions, report);
  Points removed_nan = hand.positions;
  removed_nan.x[6] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NO_THROW(simulation->Step(removed_nan, report));
}

// Each parameter check at its exact boundary, both sides: the last value
// accepted and the first refused, so that a comparison loosened or
// tightened by one step (> for >=) fails here.
TEST_P(Fracture, ParameterChecksHoldAtTheirExactBoundaries) {
  const HandLayout hand = Hand();
  const auto accepts = [&](const State& state, const Params& params) {
    try {
      Start(state, params);
      return std::string();
    } catch (const Error& error) {
      return std::string(error.what());
    }
  };
  Params p = hand.params;
  // damage_distance > 0.
  p.damage_distance = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(accepts(hand.state, p), "");
  p.damage_distance = 0;
  EXPECT_NE(accepts(hand.state, p).find("damage_distance"), std::string::npos);
  p.damage_distance = -0.0f;
  EXPECT_NE(accepts(hand.state, p).find("damage_distance"), std::string::npos);
  // min_cluster_size < max_cluster_size.
  p = hand.params;
  p.min_cluster_size = p.max_cluster_size - 1;
  EXPECT_EQ(accepts(hand.state, p), "");
  p.min_cluster_size = p.max_cluster_size;
  EXPECT_NE(accepts(hand.state, p).find("min_cluster_size"), std::string::npos);
  // Every cluster below max_cluster_size: C holds 5.
  p = hand.params;
  p.max_cluster_size = 6;
  EXPECT_EQ(accepts(hand.state, p), "");
  p.max_cluster_size = 5;
  EXPECT_NE(accepts(hand.state, p).find("holds 5 particles"),
            std::string::npos);
  // max_cluster_size >= 2, with clusters of one particle each.
  const State singles = MakeState(hand.state.grid, hand.state.particle_coord,
                                  Rows({{0}, {1}, {2}, {3}, {4}, {5}, {6}}));
  p = hand.params;
  p.max_cluster_size = 2;
  p.min_cluster_size = 1;
  EXPECT_EQ(accepts(singles, p), "");
  p.max_cluster_size = 1;
  p.min_cluster_size = 0;
  EXPECT_NE(accepts(singles, p).find("max_cluster_size must be >= 2"),
            std::string::npos);
  // Particles on the grid's last node are inside; one past it is not.
  State edge = hand.state;
  edge.particle_coord[4] = {4, 2, 0};
  edge.node_is_particle =
      MakeState(edge.grid, edge.particle_coord, Rows({})).node_is_particle;
  edge.clusters.slots[1].particles = {4};
  edge.clusters.slots[1].rest_local = RestLocal(edge, Words{4});
  EXPECT_EQ(accepts(edge, hand.params), "");
  edge.particle_coord[4] = {4, 3, 0};
  EXPECT_NE(accepts(edge, hand.params).find("outside the grid"),
            std::string::npos);
}

// Random solids, random box clusters, random damage, several frames in a
// row: every frame is the oracle's, for every belong list kind, both
// neighbourhoods and both expansions.
struct Scenario {
  scenes::Voxels voxels;
  State initial;
  Params params;
  std::uint64_t seed = 0;
  int frames = 0;
  std::vector<std::uint32_t> damage;  // per frame, particles moved
};

// Random solids, random box clusters, random damage, several frames: every
// belong list kind, both neighbourhoods and both expansions.
rc::Gen<Scenario> AnyScenario() {
  return rc::gen::exec([] {
    Scenario s;
    const auto n = *rc::gen::inRange<std::uint32_t>(2, 8);
    const double fill = *rc::gen::element(0.6, 0.85, 1.0);
    s.seed = *rc::gen::arbitrary<std::uint64_t>();
    s.voxels = scenes::RandomVoxels(n, fill, s.seed);
    RC_PRE(!s.voxels.cells.empty());
    Params& params = s.params;
    params.max_cluster_size = *rc::gen::inRange<std::uint32_t>(3, 40);
    params.min_cluster_size =
        *rc::gen::inRange<std::uint32_t>(0, params.max_cluster_size);
    params.belong = static_cast<BelongKind>(*rc::gen::inRange(0, 4));
    params.neighborhood =
        *rc::gen::element(Neighborhood::kFace6, Neighborhood::kAll26);
    params.expansion = *rc::gen::element(Expansion::kRandomAsPublished,
                                         Expansion::kBreadthFirst);
    params.components = *rc::gen::element<std::string_view>("ecl_cc", "dfs");
    params.seed = s.seed;
    params.damage_distance =
        params.neighborhood == Neighborhood::kFace6 ? 1.5f : 2.0f;
    const Csr clusters = scenes::RandomBoxClusters(
        s.voxels, *rc::gen::inRange<std::uint32_t>(1, 30), 4,
        params.max_cluster_size, s.seed + 1);
    s.initial = StateOf(s.voxels, clusters);
    // Attributes of their own, so that inheriting and resetting them shows.
    for (Cluster& cluster : s.initial.clusters.slots) {
      cluster.stiffness = *rc::gen::element(0.25f, 0.5f, 1.0f);
      cluster.rotation = *rc::gen::element(Quat{}, Quat{0, 1, 0, 0});
      cluster.translation = {
          static_cast<float>(*rc::gen::inRange(-3, 4)) * 0.5f, 1.0f, 0.0f};
    }
    s.frames = *rc::gen::inRange(1, 7);
    for (int f = 0; f < s.frames; ++f) {
      s.damage.push_back(*rc::gen::inRange<std::uint32_t>(0, 9));
    }
    return s;
  });
}

Points PositionsOf(const Scenario& s, int frame) {
  return scenes::RandomDamage(s.voxels, s.damage[frame], 5.0f,
                              s.seed + 2 + static_cast<std::uint64_t>(frame));
}

// Every frame is the oracle's (for the OpenMP rows, on 1 to 6 threads).
TEST_P(Fracture, FramesInARowMatchTheOracle) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("random solids, clusters and damage", [this] {
    const Scenario s = *AnyScenario();
    if (variant().backend == Backend::kOpenMp) {
      omp_set_num_threads(*rc::gen::inRange(1, 7));
    }
    auto simulation = Start(s.initial, s.params);
    for (int f = 0; f < s.frames; ++f) {
      const State before = simulation->Snapshot();
      const Points positions = PositionsOf(s, f);
      FrameReport report;
      simulation->Step(positions, report);
      const State after = simulation->Snapshot();
      const Csr belong = simulation->BelongLists();
      RC_CLASSIFY(report.merged > 0, "merged");
      RC_CLASSIFY(report.inserted > 0, "inserted");
      RC_CLASSIFY(report.expanded > 0, "expanded");
      const std::string difference =
          FirstDifference(before, positions, s.params, ChoiceOf(variant()),
                          after, belong, report);
      RC_LOG() << "frame " << f << ": " << difference << "\n";
      RC_ASSERT(difference == "");
      RC_ASSERT(FirstBrokenInvariant(after, belong, s.params) == "");
    }
  }));
  omp_set_num_threads(default_threads);
}

// On one thread the OpenMP rows make the serial search's choices: the
// whole run equals serial's, frame by frame.
class ThreadedFracture : public Fracture {};

TEST_P(ThreadedFracture, OnOneThreadEqualsSerial) {
  const int default_threads = omp_get_max_threads();
  omp_set_num_threads(1);
  EXPECT_TRUE(rc::check("random solids, clusters and damage", [this] {
    const Scenario s = *AnyScenario();
    auto simulation = Start(s.initial, s.params);
    auto serial = StartSerial(s.initial, s.params);
    for (int f = 0; f < s.frames; ++f) {
      const Points positions = PositionsOf(s, f);
      FrameReport got;
      FrameReport expected;
      simulation->Step(positions, got);
      serial->Step(positions, expected);
      RC_ASSERT(simulation->Snapshot() == serial->Snapshot());
      RC_ASSERT(simulation->BelongLists() == serial->BelongLists());
      RC_ASSERT(got.merges == expected.merges);
    }
  }));
  omp_set_num_threads(default_threads);
}

INSTANTIATE_TEST_SUITE_P(Variants, Fracture,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);
INSTANTIATE_TEST_SUITE_P(Variants, ThreadedFracture,
                         ::testing::ValuesIn(testing::CasesWhere(
                             Variants(),
                             [](const Variant& variant) {
                               return variant.backend == Backend::kOpenMp &&
                                      variant.origin == Origin::kFaithful;
                             })),
                         testing::CaseName);

// data_parallel's frames are the same, ==, on 1 to 6 threads: state,
// belong lists and merge choices.
TEST(DataParallelFracture, SameFramesOnEveryThreadCount) {
  const int default_threads = omp_get_max_threads();
  const Variant& data_parallel = *FindVariant(Variants(), "data_parallel");
  EXPECT_TRUE(rc::check("random solids, clusters and damage", [&] {
    const Scenario s = *AnyScenario();
    const int threads = *rc::gen::inRange(2, 7);
    omp_set_num_threads(1);
    auto one = data_parallel.run(s.initial, s.params);
    omp_set_num_threads(threads);
    auto many = data_parallel.run(s.initial, s.params);
    for (int f = 0; f < s.frames; ++f) {
      const Points positions = PositionsOf(s, f);
      FrameReport got;
      FrameReport expected;
      omp_set_num_threads(1);
      one->Step(positions, expected);
      omp_set_num_threads(threads);
      many->Step(positions, got);
      RC_ASSERT(many->Snapshot() == one->Snapshot());
      RC_ASSERT(many->BelongLists() == one->BelongLists());
      RC_ASSERT(got.merges == expected.merges);
    }
  }));
  omp_set_num_threads(default_threads);
}

// Steps both simulations through the scenario; every frame's state,
// belong lists, merges and counts must be equal.
void ExpectSameFrames(const Scenario& s, Simulation& got_simulation,
                      Simulation& expected_simulation) {
  for (int f = 0; f < s.frames; ++f) {
    const Points positions = PositionsOf(s, f);
    FrameReport got;
    FrameReport expected;
    got_simulation.Step(positions, got);
    expected_simulation.Step(positions, expected);
    RC_ASSERT(got_simulation.Snapshot() == expected_simulation.Snapshot());
    RC_ASSERT(got_simulation.BelongLists() ==
              expected_simulation.BelongLists());
    RC_ASSERT(got.merges == expected.merges);
    RC_ASSERT(got.removed == expected.removed);
    RC_ASSERT(got.influenced == expected.influenced);
    RC_ASSERT(got.new_clusters == expected.new_clusters);
    RC_ASSERT(got.merged == expected.merged);
    RC_ASSERT(got.inserted == expected.inserted);
    RC_ASSERT(got.expanded == expected.expanded);
  }
}

// The flat formulation (flat_host on the host, cuda_data_parallel on the
// GPU) gives data_parallel's frames, ==.
class FlatFracture : public Fracture {};

TEST_P(FlatFracture, SameFramesAsDataParallel) {
  EXPECT_TRUE(rc::check("random solids, clusters and damage", [this] {
    const Scenario s = *AnyScenario();
    auto flat = Start(s.initial, s.params);
    auto data_parallel = StartDataParallel(s.initial, s.params);
    ExpectSameFrames(s, *flat, *data_parallel);
  }));
}

INSTANTIATE_TEST_SUITE_P(Variants, FlatFracture,
                         ::testing::ValuesIn(testing::CasesWhere(
                             Variants(),
                             [](const Variant& variant) {
                               return variant.name == "flat_host" ||
                                      variant.name == "cuda_data_parallel";
                             })),
                         testing::CaseName);

// The cuda variant's passes with its published search, one item after
// another on the host: the first fit of the serial search, so serial's
// frames.
TEST(FlatFracturePublished, OnOneHostThreadEqualsSerial) {
  EXPECT_TRUE(rc::check("random solids, clusters and damage", [] {
    const Scenario s = *AnyScenario();
    auto flat = StartFlatHostPublished(s.initial, s.params);
    auto serial = StartSerial(s.initial, s.params);
    ExpectSameFrames(s, *flat, *serial);
  }));
}

// The belong lists' bytes (BelongBytes(), which the memory figure draws)
// against a count by hand on the hand layout: 7 particles in 9 list
// entries (particles 1 and 3 in two clusters), 3 slots. Head records are
// 12 bytes (two 32-bit words and a byte, padded), a std::vector 24; a
// vector grown by push_back from empty has capacity 1, then 2.
TEST(FractureBelongLists, BytesAreTheHandCount) {
  struct Expected {
    BelongKind kind;
    std::size_t start;
    std::size_t after;  // the hand frame: 5 and 6 removed, c into A
  };
  for (const Expected& e : {
           // A block of 4 entries a particle (4 bytes each) and a head
           // each; no block moves in the frame, none is freed.
           Expected{BelongKind::kBumpPool, 7 * 4 * 4 + 7 * 12,
                    7 * 4 * 4 + 7 * 12},
           // Offsets (8), entries (9), the sort's cursor (7), by capacity:
           // the frame's 6 entries keep the 9 allocated.
           Expected{BelongKind::kCsrRebuilt, (8 + 9 + 7) * 4, (8 + 9 + 7) * 4},
           // 7 vectors and their entries' capacities (1, 2, 1, 2, 1, 1, 1);
           // after the frame 5 and 6 are released, the rest keep theirs.
           Expected{BelongKind::kSmallVectors, 7 * 24 + 9 * 4,
                    7 * 24 + (1 + 2 + 1 + 2 + 1) * 4},
           // A class-0 block (4 entries) and a head each; the frame frees
           // the blocks of 5 and 6 onto class 0's free list (capacity 2).
           Expected{BelongKind::kSizeClassPool, 7 * 4 * 4 + 7 * 12,
                    7 * 4 * 4 + 7 * 12 + 2 * 4},
       }) {
    SCOPED_TRACE(std::string(BelongKindName(e.kind)));
    HandLayout hand = Hand();
    hand.params.belong = e.kind;
    auto simulation = StartSerial(hand.state, hand.params);
    EXPECT_EQ(simulation->BelongBytes(), e.start);
    FrameReport report;
    simulation->Step(hand.positions, report);
    ASSERT_EQ(simulation->BelongLists(),
              Rows({{0}, {0}, {0}, {0, 1}, {1}, {}, {}}));
    EXPECT_EQ(simulation->BelongBytes(), e.after);
  }
  // data_parallel's patched Csr: offsets (8), entries (9), cursor (7) and
  // a touched flag per slot (3 bytes); the others still empty.
  const HandLayout hand = Hand();
  auto patched = StartDataParallel(hand.state, hand.params);
  EXPECT_EQ(patched->BelongBytes(), (8 + 9 + 7) * 4 + 3);
  // After the frame it holds two Csr buffers (the new rows' 8 offsets and
  // 6 entries, the old ones' 8 and 9 kept for the next frame), the added
  // rows (8 offsets, the target's 4 members), the cursor (7), the 2
  // touched slots, and its 3 flags.
  FrameReport report;
  patched->Step(hand.positions, report);
  EXPECT_EQ(patched->BelongBytes(), (8 + 6 + 8 + 9 + 8 + 4 + 7 + 2) * 4 + 3);
  // flat_host's Csr: offsets (8) and entries (9).
  auto flat = StartFlatHostPublished(hand.state, hand.params);
  EXPECT_EQ(flat->BelongBytes(), (8 + 9) * 4);
}

// The bump pool only grows; the other kinds reuse what lists leave.
TEST(FractureBelongLists, BumpPoolNeverShrinks) {
  const scenes::Voxels voxels = scenes::Block(12, 12, 12);
  const State initial = StateOf(voxels, scenes::CubeClusters(voxels, 4, 2));
  Params params;
  params.max_cluster_size = 200;
  std::vector<std::size_t> bytes;
  for (int k = 0; k < 4; ++k) {
    params.belong = static_cast<BelongKind>(k);
    auto simulation = StartSerial(initial, params);
    std::size_t last = simulation->BelongBytes();
    FrameReport report;
    for (std::uint32_t f = 0; f < 12; ++f) {
      simulation->Step(scenes::BladePositions(voxels, {5.5f, 1, 2, 10, 1}, f),
                       report);
      if (params.belong == BelongKind::kBumpPool) {
        EXPECT_GE(simulation->BelongBytes(), last);
      }
      last = simulation->BelongBytes();
    }
    bytes.push_back(last);
    EXPECT_EQ(FirstBrokenInvariant(simulation->Snapshot(),
                                   simulation->BelongLists(), params),
              "");
  }
  EXPECT_GT(bytes[0], bytes[1]);
}

}  // namespace
}  // namespace adj::fracture

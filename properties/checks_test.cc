// The verifiers of checks/ accept what is right and name what is wrong:
// hand-made outputs, each correct once and then broken in one place. A
// check that could not fail would make every `verified` a formality.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/variants.h"
#include "algorithms/hash_set/hash_set.h"
#include "checks/compaction.h"
#include "checks/connected_components.h"
#include "checks/hash_grid.h"
#include "checks/hash_set.h"
#include "checks/prefix_sum.h"
#include "checks/triangle_adjacency.h"
#include "checks/triplet_collide.h"
#include "checks/triplet_schedule.h"
#include "reference/hash_grid.h"

namespace adj::checks {
namespace {

using Words = std::vector<std::uint32_t>;

TEST(Checks, CompactionNamesAWrongCountOrItem) {
  const Words expected = compaction::Expected(
      Words{5, 6, 7, 8}, std::vector<std::uint8_t>{1, 0, 0, 1});
  EXPECT_EQ(expected, (Words{6, 7}));
  EXPECT_EQ(compaction::FirstDifference(expected, 2, Words{6, 7, 99, 99}), "");
  EXPECT_NE(compaction::FirstDifference(expected, 3, Words{6, 7, 8, 0}), "");
  EXPECT_NE(compaction::FirstDifference(expected, 2, Words{6, 8, 0, 0}), "");
}

TEST(Checks, PrefixSumNamesAWrongElementOrTotal) {
  const prefix_sum::Expected expected =
      prefix_sum::ExpectedOf(adj::prefix_sum::Kind::kExclusive, Words{1, 2, 3});
  EXPECT_EQ(prefix_sum::FirstDifference(expected, Words{0, 1, 3}, 6), "");
  EXPECT_EQ(prefix_sum::FirstDifference(expected, Words{0, 1, 3}, std::nullopt),
            "");
  EXPECT_NE(prefix_sum::FirstDifference(expected, Words{0, 1, 4}, 6), "");
  EXPECT_NE(prefix_sum::FirstDifference(expected, Words{0, 1, 3}, 7), "");
  EXPECT_NE(prefix_sum::FirstDifference(expected, Words{0, 1}, 6), "");
}

// Four points on a line, 1 apart; radius 1.5: pairs (0,1), (1,2), (2,3).
class HashGridCheck : public ::testing::Test {
 protected:
  const Points points = {{0, 1, 2, 3}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  const adj::hash_grid::Params params = {1.0f, 1.5f, 8};
  static adj::hash_grid::Neighbors Lists(Csr csr, adj::hash_grid::ListKind list,
                                         adj::hash_grid::RowOrder order) {
    adj::hash_grid::Neighbors out;
    out.candidates = csr.entries();
    out.csr = std::move(csr);
    out.list = list;
    out.order = order;
    return out;
  }
};

TEST_F(HashGridCheck, AcceptsTheRightListsInEachKindAndOrder) {
  using adj::hash_grid::ListKind;
  using adj::hash_grid::RowOrder;
  const hash_grid::Expected every = hash_grid::ExpectedOf(points, 1.5f);
  const Csr full = {{0, 1, 3, 5, 6}, {1, 0, 2, 1, 3, 2}};
  const Csr half = {{0, 0, 1, 2, 3}, {0, 1, 2}};
  EXPECT_EQ(hash_grid::FirstDifference(
                points, params, every,
                Lists(full, ListKind::kFull, RowOrder::kAscending)),
            "");
  EXPECT_EQ(
      hash_grid::FirstDifference(points, params, every,
                                 Lists(full, ListKind::kFull, RowOrder::kCell)),
      "");
  EXPECT_EQ(hash_grid::FirstDifference(
                points, params, every,
                Lists(half, ListKind::kHalf, RowOrder::kAscending)),
            "");
  const hash_grid::Statistics stats = hash_grid::StatisticsOf(
      Lists(half, ListKind::kHalf, RowOrder::kAscending));
  EXPECT_EQ(stats.pairs, 3u);
  EXPECT_EQ(stats.neighbor_counts, (std::vector<std::uint64_t>{1, 2, 2, 1}));
  EXPECT_DOUBLE_EQ(stats.neighbors_per_particle, 1.5);
  // Two rows sampled (particles 0 and 2) see the same.
  EXPECT_EQ(hash_grid::FirstDifference(
                points, params, hash_grid::ExpectedOnRows(points, 1.5f, 2),
                Lists(full, ListKind::kFull, RowOrder::kAscending)),
            "");
}

TEST_F(HashGridCheck, NamesAMissingPairAWrongOrderAndAFalseRepeat) {
  using adj::hash_grid::ListKind;
  using adj::hash_grid::RowOrder;
  const hash_grid::Expected every = hash_grid::ExpectedOf(points, 1.5f);
  const Csr missing = {{0, 1, 3, 5, 5}, {1, 0, 2, 1, 3}};
  EXPECT_NE(hash_grid::FirstDifference(
                points, params, every,
                Lists(missing, ListKind::kFull, RowOrder::kAscending)),
            "");
  // Row 1 descending where ascending (and cell order, x-major) is promised.
  const Csr reversed = {{0, 1, 3, 5, 6}, {1, 2, 0, 1, 3, 2}};
  EXPECT_NE(hash_grid::FirstDifference(
                points, params, every,
                Lists(reversed, ListKind::kFull, RowOrder::kAscending)),
            "");
  EXPECT_NE(hash_grid::FirstDifference(
                points, params, every,
                Lists(reversed, ListKind::kFull, RowOrder::kCell)),
            "");
  // Müller's order with a table of 1 bucket: every cell of every window
  // shares it, so each query meets 27 x 4 candidates, far more than the 4
  // slots of his queryIds, and his rows end in one 0 per candidate dropped
  // (hash_grid.h). Listing (1, 0) once is wrong whether or not
  // multiplicities are checked; the rows his page produces are right.
  adj::hash_grid::Params one_bucket = params;
  one_bucket.table_size = 1;
  const Csr half_once = {{0, 0, 1, 2, 3}, {0, 1, 2}};
  for (const bool multiplicity : {true, false}) {
    EXPECT_NE(
        hash_grid::FirstDifference(
            points, one_bucket, every,
            Lists(half_once, ListKind::kHalf, RowOrder::kMuller), multiplicity),
        "");
  }
  adj::hash_grid::Neighbors page;
  adj::hash_grid::MullerQueryAll(points, one_bucket, page);
  EXPECT_GT(hash_grid::MullerQueriesPastSlots(points, one_bucket), 0u);
  EXPECT_EQ(hash_grid::FirstDifference(points, one_bucket, every, page), "");
  // One 0 fewer at the end of a row past its slots is wrong.
  page.csr.indices.pop_back();
  --page.csr.offsets.back();
  EXPECT_NE(hash_grid::FirstDifference(points, one_bucket, every, page), "");
  // Fewer candidates than entries cannot be.
  auto few = Lists(half_once, ListKind::kHalf, RowOrder::kAscending);
  few.candidates = 2;
  EXPECT_NE(hash_grid::FirstDifference(points, params, every, few), "");
}

TEST(Checks, TriangleAdjacencyNamesAWrongRowOrLongestRow) {
  const std::vector<Triangle> triangles = {{0, 1, 2}, {2, 1, 3}};
  const Csr ascending = triangle_adjacency::ExpectedOf(triangles, 4);
  adj::triangle_adjacency::Adjacency got;
  got.csr = {{0, 1, 3, 5, 6}, {0, 1, 0, 1, 0, 1}};
  got.order = adj::triangle_adjacency::RowOrder::kDescending;
  got.max_adjacent = 2;
  EXPECT_EQ(triangle_adjacency::FirstDifference(ascending, 2, got), "");
  got.order = adj::triangle_adjacency::RowOrder::kAscending;
  EXPECT_NE(triangle_adjacency::FirstDifference(ascending, 2, got), "");
  got.csr = {{0, 1, 3, 5, 6}, {0, 0, 1, 0, 1, 1}};
  EXPECT_EQ(triangle_adjacency::FirstDifference(ascending, 2, got), "");
  got.max_adjacent = 3;
  EXPECT_NE(triangle_adjacency::FirstDifference(ascending, 2, got), "");
  got.max_adjacent = 2;
  got.csr.indices[5] = 2;  // not a triangle
  EXPECT_NE(triangle_adjacency::FirstDifference(ascending, 2, got), "");
}

TEST(Checks, ConnectedComponentsNamesAWrongLabelOrCount) {
  // Edges 0-2, 1-3; vertex 4 alone.
  const Csr graph = {{0, 1, 2, 3, 4, 4}, {2, 3, 0, 1}};
  const connected_components::Expected expected =
      connected_components::ExpectedOf(graph);
  EXPECT_EQ(expected.labels, (Words{0, 1, 0, 1, 4}));
  EXPECT_EQ(expected.count, 3u);
  adj::connected_components::Components got{expected.labels, 3};
  EXPECT_EQ(connected_components::FirstDifference(expected, got), "");
  got.count = 2;
  EXPECT_NE(connected_components::FirstDifference(expected, got), "");
  got = {{0, 1, 0, 1, 1}, 3};
  EXPECT_NE(connected_components::FirstDifference(expected, got), "");
}

TEST(Checks, TripletScheduleNamesAConflictAWidthAndPadding) {
  using triplet_schedule::Layout;
  const std::vector<Triplet> input = {{0, 1, 2, 0}, {3, 4, 5, 0}, {2, 6, 7, 0}};
  adj::triplet_schedule::Schedule got;
  got.triplets = {{0, 1, 2, 0}, {3, 4, 5, 0}, {2, 6, 7, 0}};
  got.set_sizes = {2, 1};
  got.width = 32;
  EXPECT_EQ(triplet_schedule::FirstProblem(input, 8, Layout::kWarp, 32, got),
            "");
  EXPECT_NE(triplet_schedule::FirstProblem(input, 8, Layout::kWarp, 16, got),
            "");
  got.set_sizes = {3};  // particle 2 twice in one set
  EXPECT_NE(triplet_schedule::FirstProblem(input, 8, Layout::kWarp, 32, got),
            "");
  got.set_sizes = {2, 1};
  got.padding = 1;
  EXPECT_NE(triplet_schedule::FirstProblem(input, 8, Layout::kWarp, 32, got),
            "");
  const triplet_schedule::Bounds bounds = triplet_schedule::BoundsOf(input, 8);
  EXPECT_EQ(bounds.max_adjacent, 2u);
}

TEST(Checks, TripletCollideNamesAFlippedBitAndAMovedStaticParticle) {
  using triplet_collide::Exactness;
  // One triplet whose centroid (1, 1, 0) lies inside a unit sphere at
  // (1, 1, -0.5); particle 2 static.
  const std::vector<Triplet> order = {{0, 1, 2, 0}};
  const std::vector<adj::triplet_collide::Weight> weights = {
      adj::triplet_collide::kCentroidWeight};
  adj::triplet_collide::Shapes shapes;
  shapes.spheres = {{{1, 1, -0.5f}, 1.0f}};
  const triplet_collide::Particles before = {
      {0, 0, 0, 1}, {3, 0, 0, 1}, {0, 3, 0, 0}};
  const triplet_collide::Expected expected =
      triplet_collide::ExpectedOf(order, weights, shapes, before);
  EXPECT_EQ(expected.collided, 1u);
  EXPECT_NE(triplet_collide::BitwiseDifference(expected.particles, before), "");
  EXPECT_EQ(
      triplet_collide::FirstDifference(order, weights, shapes, before, expected,
                                       expected.particles, Exactness::kBitwise),
      "");
  triplet_collide::Particles flipped = expected.particles;
  flipped[0][2] = std::nextafter(flipped[0][2], 1.0f);
  EXPECT_NE(
      triplet_collide::FirstDifference(order, weights, shapes, before, expected,
                                       flipped, Exactness::kBitwise),
      "");
  // One ulp is within any interleaving's rounding; a static particle moved
  // is not.
  EXPECT_EQ(triplet_collide::FirstDifference(
                order, weights, shapes, before, expected, flipped,
                Exactness::kWithinInterleavingBound),
            "");
  triplet_collide::Particles moved = expected.particles;
  moved[2][0] += 1;
  EXPECT_NE(triplet_collide::FirstDifference(
                order, weights, shapes, before, expected, moved,
                Exactness::kWithinInterleavingBound),
            "");
  EXPECT_GT(triplet_collide::MaxError(moved, expected.particles), 0.5);
}

TEST(Checks, HashSetNamesAMissingKeyAndAWrongAnswer) {
  const hash_set::Expected expected = hash_set::ExpectedOf(Words{7, 3, 7, 9});
  EXPECT_EQ(expected.keys, (Words{3, 7, 9}));
  const Words queries = {3, 4, 9};
  const std::vector<std::uint8_t> answers =
      hash_set::AnswersOf(expected, queries);
  EXPECT_EQ(answers, (std::vector<std::uint8_t>{1, 0, 1}));
  EXPECT_EQ(hash_set::FirstDifferenceInAnswers(answers, queries, answers), "");
  EXPECT_NE(hash_set::FirstDifferenceInAnswers(
                answers, queries, std::vector<std::uint8_t>{1, 1, 1}),
            "");
  const auto set = adj::hash_set::Variants()[0].run(8);
  EXPECT_EQ(hash_set::FirstDifferenceAfterFilling(
                expected, set->InsertAll(Words{3, 7, 9}), *set),
            "");
  EXPECT_NE(hash_set::FirstDifferenceAfterFilling(expected, 2, *set), "");
  set->Clear();
  set->InsertAll(Words{3, 7, 8});
  EXPECT_NE(hash_set::FirstDifferenceInKeys(expected, *set), "");
}

}  // namespace
}  // namespace adj::checks

#include "algorithms/hash_grid/hash_grid.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/common/memory_budget.h"
#if ADJ_HAVE_CUDA
#include "algorithms/common/cuda.h"
#include "algorithms/hash_grid/device_searcher.h"
#endif
#include "algorithms/hash_grid/point_search.h"
#include "algorithms/hash_grid/variants.h"
#include "checks/hash_grid.h"
#include "properties/cloud_generators.h"
#include "properties/variant_cases.h"
#include "reference/hash_grid.h"
#include "scenes/clouds.h"

namespace adj::hash_grid {
namespace {

using Words = std::vector<std::uint32_t>;

// --- Müller's hash, pinned ---------------------------------------------------
//
// h = |int32((x * 92837111) ^ (y * 689287499) ^ (z * 283923481))| % table.
//   (1, 0, 0): 92837111, positive: % 1000 = 111; % 3: digit sum 32 -> 2.
//   (0, 1, 0): 689287499: % 1000 = 499; % 3: digit sum 62 -> 2.
//   (0, 0, 1): 283923481: % 1000 = 481.
//   (1, 1, 0): 92837111 ^ 689287499 = 748496316 (binary XOR of
//              0b000101100010001001010011110111 and
//              0b101001000101011011000101001011): % 1000 = 316; % 3: digit
//              sum 48 -> 0.
//   (-1, 0, 0): -92837111 as int32, |.| = 92837111: 111 as for (1, 0, 0).
//   (-3, 0, 0): -278511333: 333.
//   (0, 4, 0): 4 x 689287499 = 2757149996 >= 2^31 wraps to
//              2757149996 - 2^32 = -1537817300: |.| % 1000 = 300 (a C++ port
//              without the wrap would give 996).
//   (5, 0, 0): 464185555: % 1000 = 555; % 3 = 1.
//   (10^6, -10^6, 3): the products wrap several times; the int32 XOR is
//              -558350133: % 1000 = 133.
TEST(MullerHash, PinnedValues) {
  EXPECT_EQ(MullerHash(0, 0, 0, 1000), 0u);
  EXPECT_EQ(MullerHash(1, 0, 0, 1000), 111u);
  EXPECT_EQ(MullerHash(0, 1, 0, 1000), 499u);
  EXPECT_EQ(MullerHash(0, 0, 1, 1000), 481u);
  EXPECT_EQ(MullerHash(1, 1, 0, 1000), 316u);
  EXPECT_EQ(MullerHash(-1, 0, 0, 1000), 111u);
  EXPECT_EQ(MullerHash(-3, 0, 0, 1000), 333u);
  EXPECT_EQ(MullerHash(0, 4, 0, 1000), 300u);
  EXPECT_EQ(MullerHash(5, 0, 0, 1000), 555u);
  EXPECT_EQ(MullerHash(1000000, -1000000, 3, 1000), 133u);
  EXPECT_EQ(MullerHash(1, 0, 0, 3), 2u);
  EXPECT_EQ(MullerHash(0, 1, 0, 3), 2u);
  EXPECT_EQ(MullerHash(1, 1, 0, 3), 0u);
  EXPECT_EQ(MullerHash(5, 0, 0, 3), 1u);
  // The full int32 magnitude, before the modulo.
  EXPECT_EQ(MullerHash(0, 4, 0, 0x7fffffffu), 1537817300u);
  EXPECT_EQ(MullerHash(1000000, -1000000, 3, 0x7fffffffu), 558350133u);
}

TEST(MullerHash, AbsoluteValueOfInt32MinIsTakenIn64Bits) {
  // (-1047564, 35268, 0), found by a meet-in-the-middle search:
  //   -1047564 x 92837111 = -97252815347604, low 32 bits 2424103020
  //       35268 x 689287499 = 24309791514732, low 32 bits  276619372
  //   XOR = 0x80000000 = INT32_MIN; JavaScript's Math.abs gives 2^31 =
  //   2147483648: % 1000 = 648, % 3 = 2. (std::abs(INT32_MIN) would be
  //   undefined; a 32-bit abs typically leaves it negative.)
  EXPECT_EQ(MullerHash(-1047564, 35268, 0, 1000), 648u);
  EXPECT_EQ(MullerHash(-1047564, 35268, 0, 3), 2u);
  EXPECT_EQ(MullerHash(-1047564, 35268, 0, 0xffffffffu), 2147483648u);
  EXPECT_EQ(reference::MullerHashOf(-1047564, 35268, 0, 1000), 648u);
}

TEST(MullerHash, AgreesWithTheOracleOnRandomCells) {
  EXPECT_TRUE(rc::check([] {
    const auto coord =
        rc::gen::inRange<std::int64_t>(-kMaxCellCoord, kMaxCellCoord + 1);
    const std::int64_t x = *coord;
    const std::int64_t y = *coord;
    const std::int64_t z = *coord;
    const auto table = *rc::gen::inRange<std::uint32_t>(1, 0xffffffffu);
    RC_ASSERT(MullerHash(x, y, z, table) ==
              reference::MullerHashOf(x, y, z, table));
  }));
}

// --- Müller's queryAll on a scene worked out by hand -------------------------
//
// spacing 1, max_dist 0.25, table size 3; five particles:
//   p0 (0.875, 0.875, 0.5)  cell (0, 0, 0)
//   p1 (1.125, 0.875, 0.5)  cell (1, 0, 0)
//   p2 (0.875, 1.125, 0.5)  cell (0, 1, 0)
//   p3 (1.125, 1.125, 0.5)  cell (1, 1, 0)
//   p4 (5.5,   0.5,   0.5)  cell (5, 0, 0)
// Buckets (hash values above, table 3): (0,0,0) -> 0, (1,0,0) -> 2,
// (0,1,0) -> 2, (1,1,0) -> 0, (5,0,0) -> 1.
// create: counts b0 = 2 (p0, p3), b1 = 1 (p4), b2 = 2 (p1, p2); inclusive
// scan 2, 3, 5, guard 5; decrementing fill: p0 -> b0 slot 1, p1 -> b2 slot
// 4, p2 -> b2 slot 3, p3 -> b0 slot 0, p4 -> b1 slot 2:
//   cellStart = 0 2 3 5, cellEntries = 3 0 | 4 | 2 1.
// query of p0..p3: window x in floor(0.875 -/+ 0.25) = 0..1 (p1, p3: 0.875
// .. 1.375, also 0..1), y likewise, z floor(0.25) .. floor(0.75) = 0..0;
// cells x-major (0,0,0) (0,1,0) (1,0,0) (1,1,0) -> buckets 0 2 2 0 ->
// candidates 3 0 2 1 2 1 3 0 (two pairs of cells share a bucket).
// query of p4: the one cell (5,0,0) -> bucket 1 -> candidates 4.
// Distances: p0-p1, p0-p2, p1-p3, p2-p3 are exactly 0.25 = max_dist (kept:
// d^2 <= max_dist^2); the diagonals p0-p3, p1-p2 are 0.354 (dropped).
//   row 0: no j < 0                                  -> (empty)
//   row 1: j < 1 among 3 0 2 1 2 1 3 0: 0, 0         -> 0 0   (duplicate)
//   row 2: j < 2: 0, 1 (too far), 1 (too far), 0     -> 0 0   (duplicate)
//   row 3: j < 3: 0 (too far), 2, 1, 2, 1, 0 (far)   -> 2 1 2 1
//   row 4: none.
// firstAdjId = 0 0 2 4 8 8, adjIds = 0 0 0 0 2 1 2 1; 4 * 8 + 1 = 33
// candidates; 4 true pairs, 4 repeated entries.
Points HandScene() {
  Points points;
  points.PushBack(0.875f, 0.875f, 0.5f);
  points.PushBack(1.125f, 0.875f, 0.5f);
  points.PushBack(0.875f, 1.125f, 0.5f);
  points.PushBack(1.125f, 1.125f, 0.5f);
  points.PushBack(5.5f, 0.5f, 0.5f);
  return points;
}
constexpr Params kHandParams{1.0f, 0.25f, 3};

TEST(Muller, HandWorkedSceneBuildsTheDocumentedTable) {
  const Points points = HandScene();
  MullerHashGrid grid(kHandParams.spacing, kHandParams.table_size);
  grid.Create(points);
  EXPECT_EQ(Words(grid.cell_start().begin(), grid.cell_start().end()),
            (Words{0, 2, 3, 5}));
  EXPECT_EQ(Words(grid.cell_entries().begin(), grid.cell_entries().end()),
            (Words{3, 0, 4, 2, 1}));
  // 8 candidates, 5 slots (maxNumObjects): the last 3 writes are dropped.
  const auto candidates = grid.Query(points, 3, kHandParams.max_dist);
  EXPECT_EQ(Words(candidates.begin(), candidates.end()),
            (Words{3, 0, 2, 1, 2}));
  EXPECT_EQ(grid.query_size(), 8u);
  const auto lonely = grid.Query(points, 4, kHandParams.max_dist);
  EXPECT_EQ(Words(lonely.begin(), lonely.end()), Words{4});
  EXPECT_EQ(grid.query_size(), 1u);
}

// The queries of p0..p3 meet 8 candidates (3 0 2 1 2 1 3 0) and queryIds
// keeps the first 5 (3 0 2 1 2); each of the 3 dropped reads back as
// undefined, passes both tests and is stored as 0:
//   row 0: no kept j < 0; 3 zeros                      -> 0 0 0
//   row 1: kept j < 1: 0 (0.25); 3 zeros              -> 0 0 0 0
//   row 2: kept j < 2: 0 (0.25), 1 (0.354, dropped)    -> 0 0 0 0
//   row 3: kept j < 3: 0 (0.354), 2, 1, 2; 3 zeros     -> 2 1 2 0 0 0
//   row 4: one candidate (itself)                      -> (empty)
// firstAdjId = 0 3 7 11 17 17. A transcription of his Hash class run in
// Node 20 gives the same arrays.
TEST(Muller, HandWorkedSceneQueryAll) {
  const Points points = HandScene();
  Neighbors out;
  MullerQueryAll(points, kHandParams, out);
  EXPECT_EQ(out.csr.offsets, (Words{0, 3, 7, 11, 17, 17}));
  EXPECT_EQ(out.csr.indices,
            (Words{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 0, 0, 0}));
  EXPECT_EQ(out.list, ListKind::kHalf);
  EXPECT_EQ(out.order, RowOrder::kMuller);
  EXPECT_EQ(out.candidates, 33u);
  EXPECT_EQ(
      checks::hash_grid::FirstDifference(
          points, kHandParams,
          checks::hash_grid::ExpectedOf(points, kHandParams.max_dist), out),
      "");
  // The oracle's account of the query past its slots.
  EXPECT_EQ(reference::MullerRow(points, 1.0, 0.25, 3, 3),
            (Words{2, 1, 2, 0, 0, 0}));
  // A table large enough to separate the four cells: 4 candidates per
  // query, no duplicates, and the rows in bucket order (cells (0,1,0) ->
  // 499, (1,0,0) -> 111 at 1000: buckets are visited in cell order,
  // x-major, whatever their numbers).
  MullerQueryAll(points, {1.0f, 0.25f, 1000}, out);
  EXPECT_EQ(out.csr.offsets, (Words{0, 0, 1, 2, 4, 4}));
  EXPECT_EQ(out.csr.indices, (Words{0, 0, 2, 1}));
  EXPECT_EQ(RepeatedEntries(out.csr), 0u);
}

// Particles at x = -1e-30 and x = 1 (y 6.5, z 5.5), max_dist and spacing
// 1: their double difference 1 + 1e-30 rounds to 1, so the predicate keeps
// the pair, but Müller's query for the larger id starts at floor(1 - 1) = 0
// and the other sits in cell -1. No cell of that window shares its bucket
// at 1000 buckets: the mirrored cell (1, 6, 5) would when 6B ^ 5C is even
// (hash_grid.md), and it is odd. So his row 1 is empty, the check accepts
// that, and every other variant lists the pair. Four far particles give
// queryIds room.
TEST(Muller, HisWindowMissesAPairJustPastACellBoundary) {
  const Points points = testing::MullerWindowMissCloud();
  const Params params{1.0f, 1.0f, 1000};
  Neighbors muller;
  MullerQueryAll(points, params, muller);
  EXPECT_EQ(muller.csr.entries(), 0u);
  const checks::hash_grid::Expected expected =
      checks::hash_grid::ExpectedOf(points, 1.0f);
  EXPECT_EQ(expected.full_rows.Row(1).size(), 1u);
  EXPECT_EQ(
      checks::hash_grid::FirstDifference(points, params, expected, muller), "");
  Neighbors exact;
  CellSortedFull(points, params, exact);
  EXPECT_EQ(exact.csr.offsets, (Words{0, 1, 2, 2, 2, 2, 2}));
  EXPECT_EQ(checks::hash_grid::MullerWindowMisses(points, params, exact),
            (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{1, 0}}));
  // A listed pair his window cannot reach is wrong, multiplicities checked
  // or not.
  Neighbors invented = muller;
  invented.csr = {{0, 0, 1, 1, 1, 1, 1}, {0}};
  invented.candidates = 7;
  for (const bool multiplicity : {true, false}) {
    EXPECT_NE(checks::hash_grid::FirstDifference(points, params, expected,
                                                 invented, multiplicity),
              "");
  }
}

// One particle, one bucket: the 27 cells of its window all hash to bucket
// 0, so the query meets the particle 27 times in 1 slot, and row 0 stores
// 26 zeros: itself, as Müller's page does.
TEST(Muller, QueryPastItsSlotsStoresZeros) {
  Points one;
  one.PushBack(-3.5f, 2.0f, 7.25f);
  Neighbors out;
  MullerQueryAll(one, {1.0f, 1.0f, 1}, out);
  EXPECT_EQ(out.csr.offsets, (Words{0, 26}));
  EXPECT_EQ(out.csr.indices, Words(26, 0));
  EXPECT_EQ(out.candidates, 27u);
}

// His cloth demo's own parameters, JavaScript numbers: spacing 0.01 and
// maxDist = maxVelocity * dt = (0.2 * 0.01 / (1/60 / 10)) * (1/60) =
// 0.020000000000000004, neither of which a float holds. p0.y = -1e-10f and
// p1.y = 0.02f (0.019999999552965164) are 0.019999999652965166 apart:
// within his maxDist, beyond 0.02f. With his spacing their y cells are
// floor(-1e-8) = -1 and floor(1.99999995) = 1, whose hashes meet in bucket
// 247 of 997 (h(x, 1, z) and h(x, -1, z) share |h| whenever x*A ^ z*C ^
// (B - 1) is even, B = 689287499 being odd), so p1's window visits that
// bucket twice: row 1 = 0 0. With the floats the pair is not one. Four far
// particles give queryIds room (no query meets more than 5 of 6). A
// transcription of his Hash class run in Node 20 gives the same rows.
TEST(Muller, HisDoubleParametersAreComputedAsHisPageDoes) {
  Points points;
  points.PushBack(2.505f, -1e-10f, 2.505f);
  points.PushBack(2.505f, 0.02f, 2.505f);
  for (int k = 0; k < 4; ++k) {
    points.PushBack(7.5f + 2.0f * static_cast<float>(k), 7.5f, 7.5f);
  }
  const double dt = 1.0 / 60.0;
  const double max_velocity = 0.2 * 0.01 / (dt / 10.0);
  const double max_travel = max_velocity * dt;
  ASSERT_EQ(max_travel, 0.020000000000000004);
  Neighbors out;
  MullerQueryAllJs(points, {0.01, max_travel, 997}, out);
  EXPECT_EQ(out.csr.offsets, (Words{0, 0, 2, 2, 2, 2, 2}));
  EXPECT_EQ(out.csr.indices, (Words{0, 0}));
  MullerQueryAll(points, {0.01f, 0.02f, 997}, out);
  EXPECT_EQ(out.csr.offsets, (Words{0, 0, 0, 0, 0, 0, 0}));
  EXPECT_THROW(MullerQueryAllJs(points, {0.01, -1.0, 997}, out), Error);
  EXPECT_THROW(MullerQueryAllJs(points, {0.01, 1.0, 0}, out), Error);
}

// --- every variant against the oracle ----------------------------------------

class HashGrid : public testing::VariantTest<&hash_grid::Variants> {
 protected:
  Neighbors Run(const Points& points, const Params& params) const {
    Neighbors out;
    variant().run(points, params, out);
    return out;
  }
};

// `got` against the brute-force oracle over every row (checks/hash_grid.h
// says what agreeing means for each list kind and row order).
std::string Disagreement(const Points& points, const Params& params,
                         const Neighbors& got) {
  return checks::hash_grid::FirstDifference(
      points, params, checks::hash_grid::ExpectedOf(points, params.max_dist),
      got);
}

using testing::AnyCloud;
using testing::BuildCloud;
using testing::CloudKind;
using testing::CloudSpec;

// Lists that outgrow the memory budget are refused with a ResourceError
// naming the size and the budget, on every thread count, never an abort
// (an exception leaving an OpenMP region would call std::terminate): 3,000
// coincident points have 9 million full-list entries, 36 MB, against a
// budget of 4 MiB (the cuda row asks once its walk has counted them,
// before it allocates them). Under the budget the same call still runs.
TEST_P(HashGrid, ListsOverTheMemoryBudgetAreRefused) {
  if (const Availability runs = CanRun(variant()); !runs.available) {
    GTEST_SKIP() << runs.reason;
  }
  Points points;
  for (int i = 0; i < 3000; ++i) points.PushBack(0.5f, 0.5f, 0.5f);
  const Params params{1.0f, 1.0f, 6000};
  {
    const memory::ScopedBudget budget(std::size_t{4} << 20);
    testing::OnEveryThreadCount(3, [&](int threads) {
      try {
        Run(points, params);
        ADD_FAILURE() << "not refused on " << threads << " threads";
      } catch (const ResourceError& refused) {
        const std::string message = refused.what();
        EXPECT_NE(message.find("over the memory budget of 4.0 MiB"),
                  std::string::npos)
            << message;
      }
    });
  }
  Points few;
  for (int i = 0; i < 30; ++i) few.PushBack(0.5f, 0.5f, 0.5f);
  const memory::ScopedBudget budget(std::size_t{4} << 20);
  EXPECT_EQ(Disagreement(few, params, Run(few, params)), "");
}

TEST(Muller, AHashTableOverTheMemoryBudgetIsRefused) {
  const memory::ScopedBudget budget(std::size_t{1} << 20);
  Points points;
  points.PushBack(0.5f, 0.5f, 0.5f);
  Neighbors out;
  EXPECT_THROW(MullerQueryAll(points, {1.0f, 1.0f, 4294967295u}, out),
               ResourceError);
}

TEST_P(HashGrid, HandWorkedSceneHasTheOraclesPairs) {
  const Points points = HandScene();
  const Neighbors got = Run(points, kHandParams);
  EXPECT_EQ(Disagreement(points, kHandParams, got), "");
}

TEST_P(HashGrid, EmptyAndSingleParticle) {
  // 1000 buckets: the 27 cells of the window hash apart, so that muller's
  // query meets the one particle once (with 1 bucket it would meet it 27
  // times, Muller.QueryPastItsSlotsStoresZeros).
  const Params params{1.0f, 1.0f, 1000};
  Neighbors got = Run(Points{}, params);
  EXPECT_EQ(got.csr.offsets, Words{0});
  EXPECT_TRUE(got.csr.indices.empty());
  Points one;
  one.PushBack(-3.5f, 2.0f, 7.25f);
  got = Run(one, params);
  EXPECT_EQ(got.csr.offsets, (Words{0, 0}));
  EXPECT_TRUE(got.csr.indices.empty());
}

TEST_P(HashGrid, GeneratedCloudsMatchOracle) {
  EXPECT_TRUE(rc::check("clouds of up to 200 points", [this] {
    const CloudSpec spec = *AnyCloud(200);
    RC_CLASSIFY(spec.kind == CloudKind::kFarClusters, "far clusters");
    RC_CLASSIFY(spec.table_size < 8, "tiny table");
    const Points points = BuildCloud(spec);
    const Params params{spec.spacing, spec.max_dist, spec.table_size};
    const Neighbors got = Run(points, params);
    RC_CLASSIFY(got.csr.entries() > 0, "has pairs");
    const std::string disagreement = Disagreement(points, params, got);
    RC_ASSERT(disagreement == "");
  }));
}

// The table's run_trusted is the variant's kernel without hash_grid::Check:
// on checked input it finds the oracle's pairs, and it is what `run` runs
// after the check.
TEST_P(HashGrid, TrustedKernelMatchesOracleOnCheckedInput) {
  ASSERT_NE(variant().run_trusted, nullptr);
  EXPECT_TRUE(rc::check("clouds of up to 200 points, checked first", [this] {
    const CloudSpec spec = *AnyCloud(200);
    const Points points = BuildCloud(spec);
    const Params params{spec.spacing, spec.max_dist, spec.table_size};
    hash_grid::Check(points, params, /*hashed=*/true);
    Neighbors got;
    variant().run_trusted(points, params, got);
    RC_ASSERT(Disagreement(points, params, got) == "");
  }));
}

// A peer with a separate index (Traits::build_index; the benchmark times
// its queries alone on it): the index, built once, answers every query as
// the row does, and again on a second pass.
TEST(HashGridPeers, IndexBuiltOnceAnswersAsTheRow) {
  const Points points = scenes::UniformCloud(3000, 8.0f, 1);
  const Params params{1.0f, 1.0f, 6000};
  int indexed = 0;
  for (const Variant& variant : Variants()) {
    if (variant.traits.build_index == nullptr) continue;
    EXPECT_EQ(variant.origin, Origin::kPeer) << variant.name;
    ++indexed;
    if (!CanRun(variant).available) continue;
    Neighbors shipped;
    variant.run(points, params, shipped);
    const std::unique_ptr<PeerIndex> index =
        variant.traits.build_index(points, params);
    for (int pass = 0; pass < 2; ++pass) {
      Neighbors queried;
      index->QueryAll(queried);
      EXPECT_EQ(queried.csr, shipped.csr) << variant.name << " pass " << pass;
      EXPECT_EQ(Disagreement(points, params, queried), "") << variant.name;
    }
  }
  EXPECT_EQ(indexed, 5);  // nanoflann, Open3D, CGAL, PCL's two
}

TEST_P(HashGrid, OutputBuffersAreReused) {
  const Points big = scenes::UniformCloud(3000, 8.0f, 1);
  const Points small = HandScene();
  Neighbors out;
  variant().run(big, {1.0f, 1.0f, 6000}, out);
  variant().run(small, kHandParams, out);
  EXPECT_EQ(Disagreement(small, kHandParams, out), "");
  // An empty cloud after a full one leaves no stale result: no lists, no
  // candidates.
  variant().run(Points{}, kHandParams, out);
  EXPECT_EQ(out.csr.offsets, Words{0});
  EXPECT_TRUE(out.csr.indices.empty());
  EXPECT_EQ(out.candidates, 0u);
}

// CompactNSearch's scene at 20 points across (2,176 points), shuffled:
// a lattice, many pairs exactly two lattice spacings apart... in float, so
// not exactly: the oracle decides with the same predicate.
TEST_P(HashGrid, CompactNSearchSphereMatchesOracle) {
  const Points points = scenes::CompactNSearchSphere(20, 5);
  const float radius = scenes::CompactNSearchRadius(20);
  const Params params{radius, radius,
                      static_cast<std::uint32_t>(2 * points.size())};
  const Neighbors got = Run(points, params);
  EXPECT_EQ(Disagreement(points, params, got), "");
  EXPECT_GT(got.csr.entries(), 10 * points.size());
}

TEST_P(HashGrid, RejectsNonFinitePositionsNamingTheParticle) {
  const float bad_values[] = {std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity()};
  for (const float bad : bad_values) {
    for (int axis = 0; axis < 3; ++axis) {
      Points points = scenes::UniformCloud(50, 4.0f, 3);
      std::vector<float>& c =
          axis == 0 ? points.x : (axis == 1 ? points.y : points.z);
      c[17] = bad;
      c[40] = bad;  // a later one must not be the one named
      try {
        Run(points, {1.0f, 1.0f, 100});
        ADD_FAILURE() << "no error for " << bad << " on axis " << axis;
      } catch (const Error& error) {
        EXPECT_NE(std::string(error.what()).find("particle 17 "),
                  std::string::npos)
            << error.what();
      }
    }
  }
}

TEST_P(HashGrid, RejectsBadParameters) {
  const Points points = scenes::UniformCloud(20, 4.0f, 4);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const float max_dist : {0.0f, -1.0f, nan, inf, -0.0f}) {
    EXPECT_THROW(Run(points, {1.0f, max_dist, 40}), Error) << max_dist;
  }
  for (const float spacing : {0.0f, -1.0f, nan, inf}) {
    EXPECT_THROW(Run(points, {spacing, 1.0f, 40}), Error) << spacing;
  }
  // A window of more than 2 x 64 + 1 cells per axis.
  EXPECT_THROW(Run(points, {0.01f, 0.65f, 40}), Error);
  EXPECT_NO_THROW(Run(points, {0.01f, 0.64f, 40}));
  // Empty clouds are checked too.
  EXPECT_THROW(Run(Points{}, {1.0f, 0.0f, 1}), Error);
}

TEST_P(HashGrid, TableSizeZeroIsRejectedByHashedVariants) {
  const Points points = scenes::UniformCloud(20, 4.0f, 4);
  if (variant().name == "muller") {
    EXPECT_THROW(Run(points, {1.0f, 1.0f, 0}), Error);
  } else {
    // Exact cell keys: the table size is not used.
    EXPECT_EQ(
        Disagreement(points, {1.0f, 1.0f, 0}, Run(points, {1.0f, 1.0f, 0})),
        "");
  }
}

TEST_P(HashGrid, RejectsCellsBeyondTheHashRange) {
  // spacing 1: cell = floor(coordinate). 12,999,999 is a float (< 2^24).
  Points points;
  points.PushBack(0.0f, 0.0f, 0.0f);
  points.PushBack(12999999.0f, 0.0f, 0.0f);
  // Window up to floor(12,999,999 + 0.5) = 12,999,999: in range.
  EXPECT_NO_THROW(Run(points, {1.0f, 0.5f, 4}));
  // Window up to 13,000,001: out.
  EXPECT_THROW(Run(points, {1.0f, 2.0f, 4}), Error);
  for (const float big : {14000000.0f, -14000000.0f, 3e38f}) {
    Points far = points;
    far.y[0] = big;
    EXPECT_THROW(Run(far, {1.0f, 0.5f, 4}), Error) << big;
  }
  // The same coordinate is fine with a coarser spacing.
  Points coarse = points;
  coarse.z[1] = -14000000.0f;
  EXPECT_NO_THROW(Run(coarse, {2.0f, 0.5f, 4}));
  // A tiny spacing makes ordinary coordinates overflow the range.
  EXPECT_THROW(Run(points, {1e-30f, 1e-30f, 4}), Error);
}

TEST_P(HashGrid, LargeCoordinatesNearTheLimit) {
  // Integer coordinates around 12.9e6 (float ulp 1): the cells hash with
  // wrapped products; differences stay exact.
  Points points;
  for (int i = 0; i < 40; ++i) {
    points.PushBack(12900000.0f + static_cast<float>(i % 7),
                    -12900000.0f + static_cast<float>(i % 5),
                    static_cast<float>(i % 3));
  }
  const Params params{1.0f, 2.0f, 11};
  EXPECT_EQ(Disagreement(points, params, Run(points, params)), "");
}

// Two clusters at opposite corners of the hash's range: the occupied box
// spans about 1.7e22 cells, more than a 64-bit cell key can number (cuda
// then sorts in two stable passes, x and then (z, y); the CPU variants take
// their sparse path). Integer coordinates, float ulp 1: differences exact.
TEST_P(HashGrid, OppositeCornersOfTheCellRange) {
  Points points;
  for (int i = 0; i < 30; ++i) {
    const float sign = i % 2 == 0 ? 1.0f : -1.0f;
    points.PushBack(sign * 12900000.0f + static_cast<float>(i % 4),
                    sign * 12900000.0f + static_cast<float>(i % 3),
                    sign * 12900000.0f + static_cast<float>(i % 5));
  }
  const Params params{1.0f, 2.0f, 61};
  const Neighbors got = Run(points, params);
  EXPECT_EQ(Disagreement(points, params, got), "");
  EXPECT_GT(got.csr.entries(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Variants, HashGrid,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);

// The rows with a twin: its lists, row order and candidate count on every
// thread count, on clouds large enough that 1 to 6 threads each get their
// share (the threaded tests below fork on small clouds through the tuned
// entry points).
class TwinHashGrid : public HashGrid {};

TEST_P(TwinHashGrid, GivesItsTwinsOutputOnEveryThreadCount) {
  const Variant& twin = testing::TwinOf(Variants(), variant());
  const Points uniform =
      scenes::UniformCloud(60000, scenes::UniformSideFor(60000, 0.5f, 30), 11);
  const Points sphere = scenes::CompactNSearchSphere(50, 3);
  const float sphere_radius = scenes::CompactNSearchRadius(50);
  for (const auto& scene :
       {std::pair{&uniform, Params{0.5f, 0.5f, 0}},
        std::pair{&sphere, Params{sphere_radius, sphere_radius, 0}}}) {
    const Points* points = scene.first;
    const Params params = scene.second;
    Neighbors expected;
    twin.run(*points, params, expected);
    testing::OnEveryThreadCount(6, [&](int threads) {
      const Neighbors got = Run(*points, params);
      EXPECT_EQ(got.threads, threads);
      EXPECT_EQ(got.list, expected.list);
      EXPECT_EQ(got.order, expected.order);
      EXPECT_TRUE(got.csr == expected.csr);
      EXPECT_EQ(got.candidates, expected.candidates);
    });
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, TwinHashGrid,
    ::testing::ValuesIn(testing::CasesWithTwin(Variants())), testing::CaseName);

// --- cell_sorted_openmp on any thread count ----------------------------------

TEST(CellSortedOpenMp, SameCsrOnEveryThreadCount) {
  const Points uniform =
      scenes::UniformCloud(4000, scenes::UniformSideFor(4000, 0.5f, 30), 9);
  const Points sphere = scenes::CompactNSearchSphere(16, 3);
  for (const Points* points : {&uniform, &sphere}) {
    const Params params{0.5f, 0.5f, 0};
    Neighbors serial;
    CellSortedFull(*points, params, serial);
    EXPECT_EQ(Disagreement(*points, params, serial), "");
    testing::OnEveryThreadCount(5, [&](int threads) {
      Neighbors got;
      CellSortedOpenMpTuned(*points, params, got, 1);
      EXPECT_EQ(got.threads, threads);
      EXPECT_EQ(got.csr, serial.csr);
      EXPECT_EQ(got.candidates, serial.candidates);
    });
  }
}

// cell_order_simd_openmp: the same CSR as cell_order_simd on 1 to 5
// threads (cell order does not depend on how cells are split).
TEST(CellOrderSimdOpenMp, GeneratedCloudsOnAnyThreadCount) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check([] {
    const CloudSpec spec = *AnyCloud(200);
    omp_set_num_threads(*rc::gen::inRange(1, 6));
    const Points points = BuildCloud(spec);
    const Params params{spec.spacing, spec.max_dist, spec.table_size};
    Neighbors got;
    CellOrderSimdOpenMpTuned(points, params, got, 1);
    RC_ASSERT(Disagreement(points, params, got) == "");
    Neighbors serial;
    CellOrderSimd(points, params, serial);
    RC_ASSERT(got.csr == serial.csr);
  }));
  omp_set_num_threads(default_threads);
}

TEST(CellSortedOpenMp, GeneratedCloudsOnAnyThreadCount) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check([] {
    const CloudSpec spec = *AnyCloud(200);
    omp_set_num_threads(*rc::gen::inRange(1, 6));
    const Points points = BuildCloud(spec);
    const Params params{spec.spacing, spec.max_dist, spec.table_size};
    Neighbors got;
    CellSortedOpenMpTuned(points, params, got, 1);
    const std::string disagreement = Disagreement(points, params, got);
    RC_ASSERT(disagreement == "");
  }));
  omp_set_num_threads(default_threads);
}

// --- scenes ----------------------------------------------------------------

// Two point sets: every query point's row is the brute-force row of the
// targets, and a query at one point is the same row.
TEST(PointSearch, TwoSetsMatchTheOracle) {
  EXPECT_TRUE(rc::check("target and query clouds of up to 150 points", [] {
    const CloudSpec spec = *AnyCloud(150);
    const CloudSpec other = *AnyCloud(150);
    const Points targets = BuildCloud(spec);
    // Another cloud's points, and points within about max_dist of targets
    // (most rows then hold pairs).
    Points queries = BuildCloud(other);
    const auto offsets = *rc::gen::container<std::vector<int>>(
        3 * std::min<std::size_t>(targets.size(), 60),
        rc::gen::inRange(-1000, 1001));
    for (std::size_t k = 0; k + 2 < offsets.size(); k += 3) {
      const std::size_t i = k / 3;
      const float step = spec.max_dist / 1000;
      queries.PushBack(
          targets.x[i] + step * static_cast<float>(offsets[k]),
          targets.y[i] + step * static_cast<float>(offsets[k + 1]),
          targets.z[i] + step * static_cast<float>(offsets[k + 2]));
    }
    const Params params{spec.spacing, spec.max_dist, 0};
    // Queries whose window leaves the cell range are refused (tested
    // below): only the others are compared.
    try {
      Check(queries, params, false);
    } catch (const Error&) {
      RC_DISCARD("queries outside the cell range at these parameters");
    }
    const PointSearch search(targets, params);
    const Csr rows = search.QueryAll(queries);
    RC_CLASSIFY(rows.entries() > 0, "has pairs");
    RC_ASSERT(rows.rows() == queries.size());
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const auto expected = reference::PointRow(
          targets, params.max_dist, queries.x[i], queries.y[i], queries.z[i]);
      const auto row = rows.Row(i);
      RC_ASSERT(std::vector<std::uint32_t>(row.begin(), row.end()) == expected);
      RC_ASSERT(search.Query(queries.x[i], queries.y[i], queries.z[i]) ==
                expected);
    }
  }));
}

// The cell order is a permutation of the targets, cells (floor(c /
// spacing) in double, z then y then x) non-decreasing along it, ids
// ascending inside a cell.
TEST(PointSearch, CellOrderSortsTheTargetsByCell) {
  EXPECT_TRUE(rc::check("clouds of up to 300 points", [] {
    const CloudSpec spec = *AnyCloud(300);
    const Points points = BuildCloud(spec);
    const PointSearch search(points, {spec.spacing, spec.max_dist, 0});
    const auto order = search.cell_order();
    RC_ASSERT(order.size() == points.size());
    std::vector<bool> seen(points.size(), false);
    const auto cell = [&](std::uint32_t i) {
      const double s = spec.spacing;
      return std::tuple(std::floor(double{points.z[i]} / s),
                        std::floor(double{points.y[i]} / s),
                        std::floor(double{points.x[i]} / s), i);
    };
    for (std::size_t k = 0; k < order.size(); ++k) {
      RC_ASSERT(order[k] < points.size());
      RC_ASSERT(!seen[order[k]]);
      seen[order[k]] = true;
      if (k > 0) RC_ASSERT(cell(order[k - 1]) < cell(order[k]));
    }
  }));
}

TEST(PointSearch, RejectsBadTargetsAndQueries) {
  Points targets;
  targets.PushBack(0, 0, 0);
  targets.PushBack(1, std::numeric_limits<float>::quiet_NaN(), 0);
  EXPECT_THROW(PointSearch(targets, {1, 1, 0}), Error);
  targets.y[1] = 0;
  const PointSearch search(targets, {1, 1, 0});
  EXPECT_EQ(search.Query(0.5f, 0, 0), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_THROW(search.Query(std::numeric_limits<float>::infinity(), 0, 0),
               Error);
  EXPECT_THROW(search.Query(3e38f, 0, 0), Error);
  EXPECT_THROW(PointSearch(targets, {0, 1, 0}), Error);
  const PointSearch empty(Points{}, {1, 1, 0});
  EXPECT_TRUE(empty.Query(0, 0, 0).empty());
  EXPECT_TRUE(empty.cell_order().empty());
}

TEST(Scenes, MullerBallsDemoIsTheDemosLattice) {
  const Points balls = scenes::MullerBallsDemo();
  ASSERT_EQ(balls.size(), 13824u);  // 24^3
  // pos = bounds + spacing + i x spacing, spacing 3 x 0.025, z fastest.
  EXPECT_FLOAT_EQ(balls.x[0], -0.925f);
  EXPECT_FLOAT_EQ(balls.y[0], 0.075f);
  EXPECT_FLOAT_EQ(balls.z[1], -0.85f);
  EXPECT_FLOAT_EQ(balls.y[24], 0.15f);
}

TEST(Scenes, CompactNSearchSphereSizes) {
  // The demo's 30 across gives 12,712 points (its printout); 60 gives the
  // issue's ~107k.
  EXPECT_EQ(scenes::CompactNSearchSphere(30, 0).size(), 12712u);
  EXPECT_EQ(scenes::CompactNSearchSphere(60, 1).size(), 107392u);
}

// The device entry on resident positions (DeviceSearcher, what benchmarks
// time with CUDA events) finds the oracle's pairs, in full lists and cell
// order: no particles, the hand-worked scene, a sparse and a dense uniform
// cloud and CompactNSearch's sphere; twice each (the lists' buffers reused).
TEST(HashGridCuda, DeviceSearcherMatchesTheOracle) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  const float sphere_radius = scenes::CompactNSearchRadius(20);
  const std::vector<std::pair<Points, Params>> clouds = {
      {Points{}, kHandParams},
      {HandScene(), kHandParams},
      {scenes::UniformCloud(3000, 8.0f, 1), {1.0f, 1.0f, 6000}},
      // Rows of hundreds: longer than the first call's room per row, so
      // the first call fills by a second walk, the second packs staged rows.
      {scenes::UniformCloud(3000, 2.0f, 2), {1.0f, 1.0f, 6000}},
      {scenes::CompactNSearchSphere(20, 5),
       {sphere_radius, sphere_radius, 4352}},
  };
  for (const auto& [points, params] : clouds) {
    Check(points, params, /*hashed=*/false);
    DeviceSearcher searcher(points, params);
    for (int call = 0; call < 2; ++call) {
      EXPECT_GE(searcher.TimeLists(), 0.0);
      const Neighbors got = searcher.Lists();
      EXPECT_EQ(got.list, ListKind::kFull);
      EXPECT_EQ(got.order, RowOrder::kCell);
      EXPECT_EQ(Disagreement(points, params, got), "")
          << points.size() << " particles, call " << call;
    }
  }
#endif
}

}  // namespace
}  // namespace adj::hash_grid

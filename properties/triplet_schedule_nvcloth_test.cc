#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"
#include "checks/triplet_schedule.h"
#include "properties/mesh_generators.h"
#include "properties/triplet_schedule_cases.h"
#include "scenes/meshes.h"

namespace adj::triplet_schedule {
namespace {

// Worked by hand, following simd() (docs/sources/nvcloth-triplet-scheduler.md)
// slot by slot, W = 4:
//   batch {t0}: t1..t4 share 0, 1 or 4; t5 (3, 7, 6) fits and is swapped
//     into slot 1 (t1 goes to t5's place); nothing else fits {t0, t5}: the
//     set closes at 2 (+2 padding);
//   {t2}: t4 (3, 4, 7) fits and swaps with t3; then nothing: 2 (+2);
//   {t3}, {t1}, {t6}, {t7}: every remaining triplet holds particle 4, so each
//     is a set of 1 (+3 each).
TEST(NvClothSimd, DocumentedGridByHand) {
  const Schedule got = Scheduled(&NvClothSimd, kGrid, 9, 4);
  const auto& g = kGrid;
  const auto& d = kDummy;
  EXPECT_EQ(got.set_sizes, (Sizes{2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(got.padding, 16u);
  EXPECT_EQ(got.triplets,
            (Triplets{g[0], g[5], d, d, g[2], g[4], d, d, g[3], d, d, d,
                      g[1], d,    d, d, g[6], d,    d, d, g[7], d, d, d}));
  EXPECT_EQ(got.index_bits, 16u);
}

// Worked by hand, following the legacy loop
// (docs/sources/nvcloth-triplet-scheduler.md), W = 4, marks per batch:
//   batch 0: t0; t1 marked -> swapped with the tail t7, t7 marked -> with t6,
//     t6 marked -> with t5, t5 (3, 7, 6) fits; t2 marked -> with t4, t4 ->
//     with t3, t3 marked and the tail meets it: set of 2;
//   batch 1 (order t0 t5 | t3 t2 t6 t7 t1 t4 after the swaps): t3; the rest
//     all marked: set of 1;
//   batch 2: t2, then t4 (3, 4, 7) after one swap; then t7, t1 marked: 2;
//   batches 3, 4, 5: t1, t6, t7 alone.
TEST(NvClothSimdLegacy, DocumentedGridByHand) {
  const Schedule got = Scheduled(&NvClothSimdLegacy, kGrid, 9, 4);
  const auto& g = kGrid;
  const auto& d = kDummy;
  EXPECT_EQ(got.set_sizes, (Sizes{2, 1, 2, 1, 1, 1}));
  EXPECT_EQ(got.padding, 16u);
  EXPECT_EQ(got.triplets,
            (Triplets{g[0], g[5], d, d, g[3], d, d, d, g[2], g[4], d, d,
                      g[1], d,    d, d, g[6], d, d, d, g[7], d,    d, d}));
}

// The legacy trim, W = 2, five independent triplets.
TEST(NvClothSimdLegacy, TrimsLongSetsToMultiplesOfTheWidth) {
  const Triplets triplets = {{0, 1, 2, 0},
                             {3, 4, 5, 0},
                             {6, 7, 8, 0},
                             {9, 10, 11, 0},
                             {12, 13, 14, 0}};
  // Batches {t0, t1}, {t2, t3}, {t4, -}: the last batch cannot be completed
  // (nothing left), so the set (5 triplets) is trimmed to 4 and t4 starts
  // the next set.
  const Schedule got = Scheduled(&NvClothSimdLegacy, triplets, 15, 2);
  EXPECT_EQ(got.set_sizes, (Sizes{4, 1}));
  EXPECT_EQ(got.padding, 1u);
  // Current simd() keeps the 5 in one set: same padding here.
  const Schedule current = Scheduled(&NvClothSimd, triplets, 15, 2);
  EXPECT_EQ(current.set_sizes, (Sizes{5}));
  EXPECT_EQ(current.padding, 1u);
}

// Worked by hand, following warp() (docs/sources/nvcloth-triplet-scheduler.md),
// W = 32: maxAdj = 6 sets pre-created. t0 -> s0 (cost 0); t1 shares 0 with t0
// -> s1; t2 (1, 2, 5) shares 1 with t0 -> s1 (cost 0); t3 -> s2; t4 -> s3; t5
// (3, 7, 6) shares with t1 and t4 only -> s0 (banks 3, 7, 6 unused there: cost
// 0); t6 -> s4; t7 -> s5. Sizes 2, 2, 1, 1, 1, 1. The decrementing scatter
// reverses each set: s0 = [t5, t0], s1 = [t2, t1].
TEST(NvClothWarp, DocumentedGridByHand) {
  const auto& g = kGrid;
  const Schedule reversed = Scheduled(&NvClothWarp, kGrid, 9, 32);
  EXPECT_EQ(reversed.set_sizes, (Sizes{2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(reversed.triplets,
            (Triplets{g[5], g[0], g[2], g[1], g[3], g[4], g[6], g[7]}));
  EXPECT_EQ(reversed.padding, 0u);
  const Schedule forward = Scheduled(&NvClothWarpForward, kGrid, 9, 32);
  EXPECT_EQ(forward.set_sizes, reversed.set_sizes);
  EXPECT_EQ(forward.triplets,
            (Triplets{g[0], g[5], g[1], g[2], g[3], g[4], g[6], g[7]}));
}

// Best fit, not first fit: t0 = (50, 51, 52) and t1 = (50, 53, 54) share
// particle 50, so maxAdj = 2 and they take s0 and s1. t2 = (0, 1, 2) costs 0
// in s0 (banks 18, 19, 20 there). t3 = (32, 65, 98) has banks 0, 1, 2, each
// already at the replay count of its slot in s0 (cost 3) but free in s1
// (cost 0): it goes to s1 although s0 is valid.
TEST(NvClothWarp, PrefersTheSetWhoseBankReplaysGrowLeast) {
  const Triplets triplets = {
      {50, 51, 52, 0}, {50, 53, 54, 0}, {0, 1, 2, 0}, {32, 65, 98, 0}};
  const Schedule got = Scheduled(&NvClothWarpForward, triplets, 100, 32);
  EXPECT_EQ(got.set_sizes, (Sizes{2, 2}));
  EXPECT_EQ(got.triplets,
            (Triplets{triplets[0], triplets[2], triplets[1], triplets[3]}));
}

// The bank model is reset every W insertions. W = 16. t0 = (1000, 1001,
// 1002) and t1 = (1000, 1003, 1004) share particle 1000: s0 and s1, banks
// (8, 9, 10) and (8, 11, 12). Then 15 triplets whose slot banks are b, b+1,
// b+2 for the 15 banks b != 8 cost 0 in s0 and fill its warp to 16: the
// model resets. A last triplet on banks (8, 9, 10) then costs 0 in s0; had
// the model kept t0, it would cost 3 there and 1 in s1, and go to s1.
TEST(NvClothWarp, ResetsTheBankModelEveryWarp) {
  Triplets triplets = {{1000, 1001, 1002, 0}, {1000, 1003, 1004, 0}};
  std::uint32_t row = 128;  // particles 2048 and up, 16 per row of banks
  for (std::uint32_t b = 0; b < 16; ++b) {
    if (b == 8) continue;
    triplets.push_back({16 * row + b, 16 * (row + 1) + (b + 1) % 16,
                        16 * (row + 2) + (b + 2) % 16, 0});
    row += 3;
  }
  triplets.push_back(
      {16 * row + 8, 16 * (row + 1) + 9, 16 * (row + 2) + 10, 0});
  const Schedule got = Scheduled(&NvClothWarpForward, triplets, 4096, 16);
  EXPECT_EQ(got.set_sizes, (Sizes{17, 1}));
  EXPECT_EQ(got.triplets[16], triplets.back());
}

TEST(NvClothSchedulers, SixteenBitLimits) {
  const Triplets one = {{0, 1, 2, 0}};
  Schedule out;
  EXPECT_NO_THROW(NvClothSimd(one, 65533, 4, out));
  // The last dummy names particle 65535, the largest 16-bit index.
  EXPECT_EQ(out.triplets.back(), (Triplet{65533, 65534, 65535, 0}));
  EXPECT_THROW(NvClothSimd(one, 65534, 4, out), Error);
  EXPECT_THROW(NvClothSimdLegacy(one, 65534, 4, out), Error);
  EXPECT_NO_THROW(NvClothWarp(one, 65536, 32, out));
  EXPECT_THROW(NvClothWarp(one, 65537, 32, out), Error);
  EXPECT_THROW(NvClothWarpForward(one, 65537, 32, out), Error);
  const Triplets heavy = {{0, 1, 2, 65536}};
  EXPECT_THROW(NvClothSimd(heavy, 3, 4, out), Error);
  EXPECT_THROW(NvClothWarp(heavy, 3, 32, out), Error);
}

// stamped_simd claims NvCloth's simd schedule exactly, only faster.
TEST(StampedSimd, ReproducesNvClothSimdExactly) {
  EXPECT_TRUE(rc::check("triplets", [] {
    const auto [triplets, particles] = *AnyTriplets();
    const unsigned width = *rc::gen::element(1u, 2u, 4u, 8u);
    const Schedule nvcloth =
        Scheduled(&NvClothSimd, triplets, particles, width);
    const Schedule stamped =
        Scheduled(&StampedSimd, triplets, particles, width);
    RC_ASSERT(stamped.triplets == nvcloth.triplets);
    RC_ASSERT(stamped.set_sizes == nvcloth.set_sizes);
    RC_ASSERT(stamped.padding == nvcloth.padding);
  }));
}

}  // namespace
}  // namespace adj::triplet_schedule

// The triplet_schedule oracle on hand-built schedules: valid ones pass,
// each kind of defect is reported in words that name it, and the metrics
// match counts done by hand.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/triplet_schedule.h"

namespace adj::reference {
namespace {

using Triplets = std::vector<Triplet>;
using Sizes = std::vector<std::uint32_t>;

// A failure shows the whole message, so a reworded message is easy to fix.
testing::AssertionResult Mentions(
    const std::string& message, std::initializer_list<std::string_view> words) {
  if (message.empty()) {
    return testing::AssertionFailure() << "the schedule was accepted";
  }
  for (const std::string_view word : words) {
    if (message.find(word) == std::string::npos) {
      return testing::AssertionFailure()
             << "\"" << message << "\" does not mention \"" << word << "\"";
    }
  }
  return testing::AssertionSuccess() << message;
}

// ---------------------------------------------------------------------------
// simd schedules. The example: 100 particles, width 4, two sets.
//
//   set 0 (5 real + 3 dummies): A B C D | E d d d
//   set 1 (3 real + 1 dummy):   F G H d
//
// E repeats A's particles and H repeats B's, which is fine in other batches.

constexpr std::size_t kParticles = 100;
constexpr unsigned kWidth = 4;
constexpr Triplet kA = {0, 1, 2, 0};
constexpr Triplet kB = {3, 4, 5, 0};
constexpr Triplet kC = {6, 7, 8, 0};
constexpr Triplet kD = {9, 10, 11, 0};
constexpr Triplet kE = {0, 1, 2, 1};
constexpr Triplet kF = {32, 33, 34, 0};
constexpr Triplet kG = {64, 65, 66, 0};
constexpr Triplet kH = {3, 4, 5, 2};
constexpr Triplet kDummy = {100, 101, 102, 0};

struct SimdExample {
  // Scheduling may reorder freely, so the input order differs.
  Triplets input = {kE, kA, kB, kH, kC, kD, kF, kG};
  Triplets output = {kA,     kB,     kC, kD, kE, kDummy,
                     kDummy, kDummy, kF, kG, kH, kDummy};
  Sizes set_sizes = {5, 3};
  std::uint32_t padding = 4;

  std::string Check(unsigned width = kWidth) const {
    return CheckSimdSchedule(input, kParticles, width, output, set_sizes,
                             padding);
  }
};

TEST(CheckSimdSchedule, AcceptsTheExample) {
  EXPECT_EQ(SimdExample().Check(), "");
}

TEST(CheckSimdSchedule, AcceptsEmptyInput) {
  EXPECT_EQ(CheckSimdSchedule({}, kParticles, kWidth, {}, {}, 0), "");
  EXPECT_EQ(CheckSimdSchedule({}, 0, kWidth, {}, {}, 0), "");
}

TEST(CheckSimdSchedule, AcceptsEmptySets) {
  SimdExample example;
  example.set_sizes = {0, 5, 0, 3, 0};
  EXPECT_EQ(example.Check(), "");
}

TEST(CheckSimdSchedule, AcceptsATripletRepeatingItsOwnParticle) {
  const Triplets input = {{0, 0, 1, 0}, {2, 3, 3, 0}, {4, 4, 4, 0}};
  EXPECT_EQ(
      CheckSimdSchedule(input, 10, 4,
                        Triplets{input[0], input[1], input[2], {10, 11, 12, 0}},
                        Sizes{3}, 1),
      "");
}

TEST(CheckSimdSchedule, RejectsWidthZero) {
  EXPECT_TRUE(Mentions(SimdExample().Check(0), {"width is 0"}));
}

TEST(CheckSimdSchedule, RejectsAnInputParticleOutOfRange) {
  SimdExample example;
  example.input[3] = {3, 4, 100, 2};
  EXPECT_TRUE(Mentions(example.Check(),
                       {"input[3]", "particle 100", "particle_count 100"}));
}

TEST(CheckSimdSchedule, RejectsSetSizesNotSummingToTheInput) {
  SimdExample example;
  example.set_sizes = {5, 2};
  EXPECT_TRUE(Mentions(example.Check(), {"set sizes sum to 7", "8 triplets"}));
}

TEST(CheckSimdSchedule, RejectsAWrongPaddingCount) {
  SimdExample example;
  example.padding = 3;
  EXPECT_TRUE(Mentions(example.Check(), {"padding is 3", "need 4 dummies"}));
}

TEST(CheckSimdSchedule, RejectsAnOutputOfTheWrongSize) {
  SimdExample example;
  example.output.pop_back();
  EXPECT_TRUE(Mentions(example.Check(), {"output has 11 entries", "= 12"}));
}

TEST(CheckSimdSchedule, RejectsAWrongDummy) {
  SimdExample example;
  example.output[5] = {100, 101, 102, 1};
  EXPECT_TRUE(
      Mentions(example.Check(), {"output[5] (set 0, dummy 0 of 3, batch 1)",
                                 "wrong dummy", "(100, 101, 102; weight 0)"}));
  example.output[5] = kDummy;
  example.output[11] = {100, 101, 103, 0};
  EXPECT_TRUE(Mentions(example.Check(), {"output[11]", "wrong dummy"}));
}

TEST(CheckSimdSchedule, RejectsDummiesInTheWrongPlace) {
  // A dummy in the middle of set 0's real triplets, C moved to the padding.
  SimdExample example;
  std::swap(example.output[2], example.output[5]);
  EXPECT_TRUE(Mentions(example.Check(),
                       {"output[2] (set 0, real triplet 2 of 5, batch 0)",
                        "where a real triplet belongs"}));
  // Set 0's real triplets in place but set 1 starting with its dummy.
  example = SimdExample();
  example.output = {kA,     kB,     kC,     kD, kE, kDummy,
                    kDummy, kDummy, kDummy, kF, kG, kH};
  EXPECT_TRUE(Mentions(example.Check(),
                       {"output[8] (set 1, real triplet 0 of 3, batch 2)",
                        "where a real triplet belongs"}));
  // Too few dummies after set 0, so a real triplet sits in its padding.
  example.output = {kA,     kB, kC, kD, kE,     kDummy,
                    kDummy, kF, kG, kH, kDummy, kDummy};
  EXPECT_TRUE(Mentions(example.Check(), {"output[7] (set 0, dummy 2 of 3",
                                         "a real triplet where a dummy "
                                         "belongs"}));
}

TEST(CheckSimdSchedule, RejectsAMissingTriplet) {
  // C replaced by a triplet the input does not have.
  SimdExample example;
  example.output[2] = {6, 7, 99, 0};
  EXPECT_TRUE(
      Mentions(example.Check(),
               {"not a permutation",
                "input triplet (6, 7, 8; weight 0) is missing", "output[2]",
                "(6, 7, 99; weight 0) is not in the "
                "input"}));
}

TEST(CheckSimdSchedule, RejectsADuplicatedTriplet) {
  // C replaced by a second D: also a batch conflict, but the permutation
  // is the cause and is reported first.
  SimdExample example;
  example.output[2] = kD;
  EXPECT_TRUE(
      Mentions(example.Check(),
               {"not a permutation", "(9, 10, 11; weight 0)", "duplicated",
                "output[2]", "output[3]", "(6, 7, 8; weight 0) is missing"}));
}

TEST(CheckSimdSchedule, RejectsAChangedWeightIndex) {
  SimdExample example;
  example.output[2][3] = 7;
  EXPECT_TRUE(
      Mentions(example.Check(), {"weight index changed", "(6, 7, 8; weight 7)",
                                 "(6, 7, 8; weight 0) is missing"}));
}

TEST(CheckSimdSchedule, RejectsABatchWhoseTripletsShareAParticle) {
  // D and E swapped: batch 0 holds A and E, both on particles 0, 1, 2.
  SimdExample example;
  std::swap(example.output[3], example.output[4]);
  EXPECT_TRUE(Mentions(example.Check(),
                       {"batch 0 (output[0..4))", "particle 0",
                        "output[0] (set 0, real triplet 0 of 5, batch 0) "
                        "(0, 1, 2; weight 0)",
                        "output[3] (set 0, real triplet 3 of 5, batch 0) "
                        "(0, 1, 2; weight 1)"}));
}

TEST(CheckSimdSchedule, RejectsTwoTripletsSharingOneParticleOnce) {
  // Each triplet repeats a particle of its own, which is fine; particle 1
  // in both is not.
  const Triplets input = {{0, 0, 1, 0}, {1, 2, 2, 0}};
  EXPECT_TRUE(Mentions(CheckSimdSchedule(input, 3, 2, input, Sizes{2}, 0),
                       {"batch 0", "particle 1"}));
}

TEST(CheckSimdSchedule, HandlesALargeSchedule) {
  // 200k disjoint triplets in one set, plus the padding to width 8.
  constexpr std::uint32_t kTriplets = 200'003;
  constexpr unsigned kLanes = 8;
  Triplets input;
  for (std::uint32_t i = 0; i < kTriplets; ++i) {
    input.push_back({3 * i, 3 * i + 1, 3 * i + 2, i % 7});
  }
  Triplets output(input.rbegin(), input.rend());
  const std::size_t particles = 3 * kTriplets;
  const auto n = static_cast<std::uint32_t>(particles);
  output.insert(output.end(), 5, Triplet{n, n + 1, n + 2, 0});
  EXPECT_EQ(
      CheckSimdSchedule(input, particles, kLanes, output, Sizes{kTriplets}, 5),
      "");
}

// ---------------------------------------------------------------------------
// warp schedules. Triplets 0 and 2 share particle 1, so they need two sets.

struct WarpExample {
  Triplets input = {{0, 1, 2, 0}, {3, 4, 5, 1}, {1, 6, 7, 2}};
  Triplets output = {{3, 4, 5, 1}, {0, 1, 2, 0}, {1, 6, 7, 2}};
  Sizes set_sizes = {2, 1};

  std::string Check() const {
    return CheckWarpSchedule(input, 8, output, set_sizes);
  }
};

TEST(CheckWarpSchedule, AcceptsTheExample) {
  EXPECT_EQ(WarpExample().Check(), "");
}

TEST(CheckWarpSchedule, AcceptsEmptyInputAndEmptySets) {
  EXPECT_EQ(CheckWarpSchedule({}, 8, {}, {}), "");
  EXPECT_EQ(CheckWarpSchedule({}, 8, {}, Sizes{0, 0}), "");
  WarpExample example;
  example.set_sizes = {0, 2, 0, 1, 0};
  EXPECT_EQ(example.Check(), "");
}

TEST(CheckWarpSchedule, AcceptsATripletRepeatingItsOwnParticle) {
  const Triplets input = {{0, 0, 1, 0}, {2, 2, 2, 0}, {3, 4, 3, 0}};
  EXPECT_EQ(CheckWarpSchedule(input, 5, input, Sizes{3}), "");
}

TEST(CheckWarpSchedule, RejectsAnInputParticleOutOfRange) {
  WarpExample example;
  example.input[2] = {1, 6, 8, 2};
  EXPECT_TRUE(Mentions(example.Check(), {"input[2]", "particle 8"}));
}

TEST(CheckWarpSchedule, RejectsSetSizesNotSummingToTheInput) {
  WarpExample example;
  example.set_sizes = {2, 2};
  EXPECT_TRUE(Mentions(example.Check(), {"set sizes sum to 4", "3 triplets"}));
}

TEST(CheckWarpSchedule, RejectsAnOutputOfTheWrongSize) {
  // A padded output is not a warp schedule.
  WarpExample example;
  example.output.push_back({8, 9, 10, 0});
  EXPECT_TRUE(
      Mentions(example.Check(), {"output has 4 entries", "no padding"}));
}

TEST(CheckWarpSchedule, RejectsAMissingOrDuplicatedTriplet) {
  WarpExample example;
  example.output[2] = {0, 1, 2, 0};
  EXPECT_TRUE(Mentions(example.Check(),
                       {"(0, 1, 2; weight 0) is duplicated: in the input once, "
                        "in the output 2 times, at output[1] (set 0, real "
                        "triplet 1 of 2), output[2] (set 1, real triplet 0 of "
                        "1)",
                        "input triplet (1, 6, 7; weight 2) is missing"}));
}

TEST(CheckWarpSchedule, RejectsAChangedWeightIndex) {
  WarpExample example;
  example.output[0][3] = 0;
  EXPECT_TRUE(Mentions(example.Check(),
                       {"weight index changed", "(3, 4, 5; weight 0)"}));
}

TEST(CheckWarpSchedule, RejectsASetWhoseTripletsShareAParticle) {
  WarpExample example;
  example.output = {{0, 1, 2, 0}, {1, 6, 7, 2}, {3, 4, 5, 1}};
  EXPECT_TRUE(Mentions(example.Check(),
                       {"set 0 (output[0..2)) is not an independent set",
                        "particle 1", "output[0]", "(0, 1, 2; weight 0)",
                        "output[1]", "(1, 6, 7; weight 2)"}));
}

TEST(CheckWarpSchedule, HandlesALargeSchedule) {
  constexpr std::uint32_t kTriplets = 200'000;
  Triplets input;
  for (std::uint32_t i = 0; i < kTriplets; ++i) {
    input.push_back({3 * i + 2, 3 * i, 3 * i + 1, i % 5});
  }
  const Triplets output(input.rbegin(), input.rend());
  EXPECT_EQ(CheckWarpSchedule(input, 3 * kTriplets, output,
                              Sizes{kTriplets / 2, 0, kTriplets / 2}),
            "");
}

// ---------------------------------------------------------------------------
// Metrics.

TEST(MaxAdjacentCount, CountsSlotsAndIgnoresIndicesPastTheParticles) {
  // Particle 5: two slots of the first triplet, one of the second = 3.
  // Particle 9 (five slots) is a particle only when there are 10.
  const Triplets input = {
      {5, 5, 1, 0}, {5, 2, 3, 0}, {9, 9, 9, 0}, {9, 9, 0, 0}};
  EXPECT_EQ(MaxAdjacentCount(input, 6), 3u);
  EXPECT_EQ(MaxAdjacentCount(input, 10), 5u);
  EXPECT_EQ(MaxAdjacentCount({}, 10), 0u);
}

// Triplet i = (32 i, 2000 + i, 3000 + 32 i): disjoint particles, and per
// slot the banks (p & 31) are 0 for every i (slot 0), 16 + i mod 32 (slot
// 1: 2000 = 62 * 32 + 16) and 24 for every i (slot 2: 3000 = 93 * 32 + 24).
Triplet BankTestTriplet(std::uint32_t i) {
  return {32 * i, 2000 + i, 3000 + 32 * i, i};
}

TEST(MeasureSchedule, WarpSetOf33) {
  Triplets triplets;
  for (std::uint32_t i = 0; i < 33; ++i) triplets.push_back(BankTestTriplet(i));
  const Sizes set_sizes = {33};
  constexpr std::size_t kManyParticles = 5002;
  ASSERT_EQ(CheckWarpSchedule(triplets, kManyParticles, triplets, set_sizes),
            "");
  // Chunk 0 = triplets 0..31: slot 0 all in bank 0 -> 32; slot 1 in 32
  // different banks -> 1; slot 2 all in bank 24 -> 32; 65 in all.
  // Chunk 1 = triplet 32 alone: 1 + 1 + 1 = 3. Replays 65 + 3 = 68;
  // ideal 3 x 2 chunks = 6; idle lanes (32 - 33 % 32) % 32 = 31. Every
  // particle is in one slot: max_adj 1.
  ScheduleMetrics expected;
  expected.sets = 1;
  expected.max_adj = 1;
  expected.set_min = 33;
  expected.set_max = 33;
  expected.set_mean = 33;
  expected.replays = 68;
  expected.ideal_replays = 6;
  expected.idle_lanes = 31;
  EXPECT_EQ(
      MeasureSchedule(triplets, kManyParticles, 32, triplets, set_sizes, 0),
      expected);
}

TEST(MeasureSchedule, WarpTwoSets) {
  // The set of 33 above, then a set of 2: (0, 0, 5000) and (2000, 3000,
  // 5001), disjoint from each other.
  Triplets triplets;
  for (std::uint32_t i = 0; i < 33; ++i) triplets.push_back(BankTestTriplet(i));
  triplets.push_back({0, 0, 5000, 0});
  triplets.push_back({2000, 3000, 5001, 0});
  const Sizes set_sizes = {33, 2};
  constexpr std::size_t kManyParticles = 5002;
  ASSERT_EQ(CheckWarpSchedule(triplets, kManyParticles, triplets, set_sizes),
            "");
  // Set 1 is one chunk: slot 0 banks {0, 16} -> 1; slot 1 {0, 24} -> 1;
  // slot 2 {8, 9} (5000 = 156 * 32 + 8) -> 1; so 3. Replays 68 + 3 = 71;
  // ideal 3 x 3 chunks = 9; idle lanes 31 + 30 = 61. Particle 0 fills
  // slot 0 of triplet 0 and two slots of (0, 0, 5000): max_adj 3.
  ScheduleMetrics expected;
  expected.sets = 2;
  expected.max_adj = 3;
  expected.set_min = 2;
  expected.set_max = 33;
  expected.set_mean = 17.5;
  expected.replays = 71;
  expected.ideal_replays = 9;
  expected.idle_lanes = 61;
  EXPECT_EQ(
      MeasureSchedule(triplets, kManyParticles, 32, triplets, set_sizes, 0),
      expected);
}

TEST(ReplaysLowerBound, CountsTheMostLoadsOnOneBank) {
  // The set of 33 of WarpSetOf33: bank 0 takes slot 0 of all 33 triplets
  // and slot 1 of triplet 16 (2016 = 63 * 32); bank 24 slot 2 of all 33
  // and slot 1 of triplet 8 (2008 = 62 * 32 + 24); every other bank one
  // or two slot-1 loads. So 34, under the 68 that layout replays.
  Triplets triplets;
  for (std::uint32_t i = 0; i < 33; ++i) triplets.push_back(BankTestTriplet(i));
  EXPECT_EQ(ReplaysLowerBound(triplets), 34u);
  EXPECT_EQ(ReplaysLowerBound({}), 0u);
  // In one set its 33 triplets make at most (33 + 31) / 32 = 2 chunks,
  // ideal 6: 34 / 6. In two sets at most (33 + 62) / 32 = 2 chunks too;
  // in three, 3 chunks: 34 / 9.
  EXPECT_DOUBLE_EQ(ReplayRatioLowerBound(triplets, 1), 34.0 / 6);
  EXPECT_DOUBLE_EQ(ReplayRatioLowerBound(triplets, 2), 34.0 / 6);
  EXPECT_DOUBLE_EQ(ReplayRatioLowerBound(triplets, 3), 34.0 / 9);
  EXPECT_DOUBLE_EQ(ReplayRatioLowerBound(triplets, 0), 34.0 / 6);
  // Never below 1: 64 triplets on 32 distinct banks in every slot.
  Triplets spread;
  for (std::uint32_t i = 0; i < 64; ++i)
    spread.push_back({i, 64 + i, 128 + i, 0});
  EXPECT_EQ(ReplaysLowerBound(spread), 6u);
  EXPECT_DOUBLE_EQ(ReplayRatioLowerBound(spread, 1), 1.0);
  // 3 sets make at most (64 + 93) / 32 = 4 chunks: 6 / 12, clamped to 1.
  EXPECT_DOUBLE_EQ(ReplayRatioLowerBound(spread, 3), 1.0);
  EXPECT_EQ(ReplayRatioLowerBound({}, 1), 0.0);
}

// The floors hold for every schedule, valid or not: any order of any
// triplets, cut into any set sizes, replays at least ReplaysLowerBound and
// at least ReplayRatioLowerBound(triplets, sets) x ideal. Particles below
// 80 crowd the banks, so that the bound is often above 1.
TEST(ReplaysLowerBound, HoldsForEveryOrderAndSplit) {
  EXPECT_TRUE(rc::check("order and split", [] {
    const auto particle = rc::gen::inRange<std::uint32_t>(0, 80);
    Triplets triplets = *rc::gen::nonEmpty(
        rc::gen::container<Triplets>(rc::gen::construct<Triplet>(
            particle, particle, particle, rc::gen::just<std::uint32_t>(0))));
    const Triplets input = triplets;
    const auto order = *rc::gen::container<std::vector<std::size_t>>(
        triplets.size(), rc::gen::inRange<std::size_t>(0, triplets.size()));
    for (std::size_t i = 0; i < triplets.size(); ++i) {
      std::swap(triplets[i], triplets[order[i]]);
    }
    Sizes set_sizes;
    for (std::size_t left = triplets.size(); left > 0;) {
      const auto size = *rc::gen::inRange<std::size_t>(1, left + 1);
      set_sizes.push_back(static_cast<std::uint32_t>(size));
      left -= size;
    }
    const ScheduleMetrics metrics =
        MeasureSchedule(input, 80, 32, triplets, set_sizes, 0);
    RC_ASSERT(metrics.replays >= ReplaysLowerBound(input));
    RC_ASSERT(static_cast<double>(metrics.replays) >=
              ReplayRatioLowerBound(input, metrics.sets) *
                  static_cast<double>(metrics.ideal_replays) * (1 - 1e-12));
  }));
}

TEST(MeasureSchedule, SimdSkipsTheDummies) {
  const SimdExample example;
  // Set 0 (A B C D E): slot 0 banks 0, 3, 6, 9, 0 -> 2, slots 1 and 2
  // likewise -> 2 each: 6. Set 1 (F G H, from output[8]): slot 0 banks
  // 0, 0, 3 -> 2, slots 1 and 2 likewise: 6. Replays 12; ideal 3 x 2 = 6;
  // idle lanes 27 + 29 = 56. Reading set 1 from output[5] instead would
  // meet three dummies in one bank per slot (3 x 3 = 9, replays 15).
  // Particles 0..5 are each in two triplets: max_adj 2.
  ScheduleMetrics expected;
  expected.sets = 2;
  expected.max_adj = 2;
  expected.set_min = 3;
  expected.set_max = 5;
  expected.set_mean = 4;
  expected.padding = 4;
  expected.padding_ratio = 0.5;
  expected.replays = 12;
  expected.ideal_replays = 6;
  expected.idle_lanes = 56;
  EXPECT_EQ(MeasureSchedule(example.input, kParticles, kWidth, example.output,
                            example.set_sizes, example.padding),
            expected);
}

TEST(MeasureSchedule, EmptyScheduleIsAllZero) {
  EXPECT_EQ(MeasureSchedule({}, 10, 4, {}, {}, 0), ScheduleMetrics());
  // Empty sets count as sets of size 0 and have no chunks.
  ScheduleMetrics empty_sets;
  empty_sets.sets = 2;
  EXPECT_EQ(MeasureSchedule({}, 10, 4, {}, Sizes{0, 0}, 0), empty_sets);
}

}  // namespace
}  // namespace adj::reference

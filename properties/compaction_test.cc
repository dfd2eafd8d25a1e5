#include "algorithms/compaction/compaction.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/simd.h"
#if ADJ_HAVE_CUDA
#include "algorithms/common/cuda.h"
#include "algorithms/compaction/device_compactor.h"
#endif
#include "algorithms/compaction/variants.h"
#include "checks/compaction.h"
#include "properties/variant_cases.h"
#include "reference/compaction.h"
#include "scenes/arrays.h"

namespace adj::compaction {
namespace {

using Words = std::vector<std::uint32_t>;
using Flags = std::vector<std::uint8_t>;

class Compaction : public testing::VariantTest<&Variants> {
 protected:
  // Out of place and in place against the oracle, in a RapidCheck property.
  void CheckAgainstOracle(const Words& values, const Flags& flags) const {
    const Words expected = checks::compaction::Expected(values, flags);
    Words out(values.size(), 0xDEADBEEF);
    const std::size_t kept = variant().run(values, flags, out);
    RC_ASSERT(checks::compaction::FirstDifference(expected, kept, out) == "");
    Words in_place = values;
    const std::size_t kept_in_place = variant().run(in_place, flags, in_place);
    RC_ASSERT(checks::compaction::FirstDifference(expected, kept_in_place,
                                                  in_place) == "");
  }
};

// Flags of every density, any nonzero byte meaning "remove".
rc::Gen<std::pair<Words, Flags>> AnyItems(std::size_t max_size) {
  return rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange<std::size_t>(0, max_size + 1),
                    rc::gen::inRange(0, 101)),
      [](const std::pair<std::size_t, int>& size_and_percent) {
        const std::size_t size = size_and_percent.first;
        const int percent = size_and_percent.second;
        return rc::gen::pair(
            rc::gen::container<Words>(size,
                                      rc::gen::arbitrary<std::uint32_t>()),
            rc::gen::container<Flags>(
                size, rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 100),
                                                 rc::gen::inRange(1, 256)),
                                   [percent](std::pair<int, int> draw) {
                                     return static_cast<std::uint8_t>(
                                         draw.first < percent ? draw.second
                                                              : 0);
                                   })));
      });
}

TEST_P(Compaction, HandCheckedExample) {
  const Words values = {10, 11, 12, 13, 14, 15};
  const Flags flags = {0, 1, 0, 255, 0, 7};
  Words out(values.size());
  EXPECT_EQ(variant().run(values, flags, out), 3u);
  EXPECT_EQ((Words{out[0], out[1], out[2]}), (Words{10, 12, 14}));
}

TEST_P(Compaction, EmptyAllKeptAllRemoved) {
  Words none;
  Flags no_flags;
  EXPECT_EQ(variant().run(none, no_flags, none), 0u);
  const Words values = {1,  2,  3,  4,  5,  6,  7,  8,  9, 10,
                        11, 12, 13, 14, 15, 16, 17, 18, 19};
  Words out(values.size());
  EXPECT_EQ(variant().run(values, Flags(values.size(), 0), out), values.size());
  EXPECT_EQ(out, values);
  EXPECT_EQ(variant().run(values, Flags(values.size(), 1), out), 0u);
}

TEST_P(Compaction, RejectsBadArguments) {
  Words values(8, 1);
  Words out(8);
  EXPECT_THROW(variant().run(values, Flags(7, 0), out), Error);
  Words short_out(7);
  EXPECT_THROW(variant().run(values, Flags(8, 0), short_out), Error);
  // Overlapping without being the same array.
  Words both(16, 1);
  EXPECT_THROW(variant().run(std::span(both).subspan(0, 8), Flags(8, 0),
                             std::span(both).subspan(4, 8)),
               Error);
}

TEST_P(Compaction, EveryShortLengthAndDensityMatchesOracle) {
  EXPECT_TRUE(rc::check("short arrays", [this] {
    const auto [values, flags] = *AnyItems(100);
    CheckAgainstOracle(values, flags);
  }));
}

TEST_P(Compaction, LongArraysMatchOracle) {
  EXPECT_TRUE(rc::check("arrays past the fork threshold", [this] {
    const auto [values, flags] = *rc::gen::resize(20, AnyItems(300000));
    CheckAgainstOracle(values, flags);
  }));
}

// Past 2^22 items the simd kernel streams its output through an aligned
// staging buffer: every density, and an odd offset so that the scalar head
// that aligns the cursor runs.
TEST_P(Compaction, StreamingSizesMatchOracle) {
  const std::size_t n = (std::size_t{1} << 22) + 1000;
  Words values(n + 1);
  std::uint64_t state = 88172645463325252u;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (std::uint32_t& value : values)
    value = static_cast<std::uint32_t>(next());
  for (const int percent : {0, 10, 50, 90, 100}) {
    Flags flags(n);
    for (std::uint8_t& flag : flags) {
      flag = next() % 100 < static_cast<std::uint64_t>(percent) ? 1 : 0;
    }
    const std::span<const std::uint32_t> in(values.data() + 1, n);
    const Words expected = checks::compaction::Expected(in, flags);
    Words out(n + 1, 0xDEADBEEF);
    const std::span<std::uint32_t> shifted(out.data() + 1, n);
    const std::size_t kept = variant().run(in, flags, shifted);
    EXPECT_EQ(checks::compaction::FirstDifference(expected, kept, shifted), "")
        << percent << "% removed";
    EXPECT_EQ(out[0], 0xDEADBEEF);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, Compaction,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);

// The rows with a twin: its output and count on every thread count, out of
// place and in place, on an input long enough that 1 to 6 threads each get
// their share.
class TwinCompaction : public Compaction {};

TEST_P(TwinCompaction, GivesItsTwinsOutputOnEveryThreadCount) {
  const Variant& twin = testing::TwinOf(Variants(), variant());
  const std::size_t n = 7 * (std::size_t{1} << 16) + 12345;
  const Words values = scenes::RandomWords(n, 6);
  const Words draws = scenes::RandomWords(n, 7);
  for (const std::uint32_t percent : {10u, 50u, 90u}) {
    Flags flags(n);
    for (std::size_t i = 0; i < n; ++i) flags[i] = draws[i] % 100 < percent;
    Words expected(n);
    const std::size_t expected_kept = twin.run(values, flags, expected);
    testing::OnEveryThreadCount(6, [&](int) {
      Words out(n, 0xDEADBEEF);
      EXPECT_EQ(variant().run(values, flags, out), expected_kept);
      EXPECT_TRUE(std::equal(out.begin(), out.begin() + expected_kept,
                             expected.begin()));
      Words in_place = values;
      EXPECT_EQ(variant().run(in_place, flags, in_place), expected_kept);
      EXPECT_TRUE(std::equal(in_place.begin(), in_place.begin() + expected_kept,
                             expected.begin()));
    });
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, TwinCompaction,
    ::testing::ValuesIn(testing::CasesWithTwin(Variants())), testing::CaseName);

// openmp's chained chunks, slices and in-place moves on small arrays: a fork
// at 1 to 8 items per thread, chunks of 1 to 16 items, 1 to 6 threads, on
// every Highway target (below
// AVX-512 a compress store writes a whole vector, past what a thread keeps).
TEST(CompactionOpenMp, AnyForkThresholdAndThreadCountMatchesOracle) {
  const int default_threads = omp_get_max_threads();
  for (const std::int64_t target : simd::RunnableTargets()) {
    simd::ForceTarget(target);
    EXPECT_TRUE(rc::check("tiny slices on " + simd::TargetName(target), [] {
      const auto [values, flags] = *AnyItems(200);
      const std::size_t min_items = *rc::gen::inRange<std::size_t>(1, 9);
      const std::size_t chunk = *rc::gen::inRange<std::size_t>(1, 17);
      omp_set_num_threads(*rc::gen::inRange(1, 7));
      const Words expected = checks::compaction::Expected(values, flags);
      Words out(values.size(), 0xDEADBEEF);
      const std::size_t kept =
          OpenMpCompactTuned(values, flags, out, min_items, chunk);
      RC_ASSERT(checks::compaction::FirstDifference(expected, kept, out) == "");
      Words in_place = values;
      const std::size_t kept_in_place =
          OpenMpCompactTuned(in_place, flags, in_place, min_items, chunk);
      RC_ASSERT(checks::compaction::FirstDifference(expected, kept_in_place,
                                                    in_place) == "");
    }));
  }
  simd::ForceTarget(0);
  omp_set_num_threads(default_threads);
}

// openmp forks one thread per 2^16 items, and out of place (a thread
// takes whole chunks of 2^17) no more threads than chunks: 2^17 items on
// two threads are one chunk, so one thread, where in place they are two
// slices.
TEST(CompactionOpenMp, ForksNoThreadWithoutAChunk) {
  const int default_threads = omp_get_max_threads();
  constexpr std::size_t kChunk = std::size_t{1} << 17;
  omp_set_num_threads(2);
  EXPECT_EQ(OpenMpCompactThreads(0, false), 1);
  EXPECT_EQ(OpenMpCompactThreads(kChunk - 1, true), 1);
  EXPECT_EQ(OpenMpCompactThreads(kChunk, false), 1);
  EXPECT_EQ(OpenMpCompactThreads(kChunk, true), 2);
  EXPECT_EQ(OpenMpCompactThreads(kChunk + 1, false), 2);
  omp_set_num_threads(8);
  EXPECT_EQ(OpenMpCompactThreads(2 * kChunk, false), 2);
  EXPECT_EQ(OpenMpCompactThreads(2 * kChunk, true), 4);
  EXPECT_EQ(OpenMpCompactThreads(64 * kChunk, false), 8);
  omp_set_num_threads(default_threads);
}

// The device entries on resident arrays (DeviceCompactor, what benchmarks
// time with CUDA events) keep what the oracle keeps: nothing, everything
// kept or removed, lengths around a tile, and a long random array, twice
// each (the buffers reused).
TEST(CompactionCuda, DeviceCompactorMatchesTheOracle) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  std::vector<std::pair<Words, Flags>> cases = {
      {{}, {}},
      {{7, 8, 9}, {0, 0, 0}},
      {{7, 8, 9}, {1, 2, 255}},
  };
  for (const std::size_t n : {1023u, 1024u, 1025u, 3000u, 1000003u}) {
    const Words values = scenes::RandomWords(n, n);
    Flags flags(n);
    for (std::size_t i = 0; i < n; ++i) flags[i] = values[i] % 3 == 0 ? 1 : 0;
    cases.emplace_back(values, flags);
  }
  for (const auto& [values, flags] : cases) {
    const Words expected = checks::compaction::Expected(values, flags);
    DeviceCompactor compactor(values, flags);
    for (const Variant& variant : Variants()) {
      if (variant.backend != Backend::kCuda) continue;
      for (int call = 0; call < 2; ++call) {
        EXPECT_GE(compactor.TimeCompact(variant), 0.0);
        const Words kept = compactor.Kept();
        EXPECT_EQ(
            checks::compaction::FirstDifference(expected, kept.size(), kept),
            "")
            << variant.name << ", " << values.size() << " items, call " << call;
      }
    }
  }
#endif
}

TEST(CompactionOracle, IsCopyIf) {
  EXPECT_EQ(reference::Compacted(Words{5, 6, 7}, Flags{1, 0, 0}),
            (Words{6, 7}));
  EXPECT_THROW(reference::Compacted(Words{5}, Flags{}), std::invalid_argument);
}

}  // namespace
}  // namespace adj::compaction

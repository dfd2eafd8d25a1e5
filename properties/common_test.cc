#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/cuda.h"
#if ADJ_HAVE_CUDA
#include "algorithms/common/device_copy.h"
#endif
#include "algorithms/common/errors.h"
#include "algorithms/common/simd.h"

namespace adj {
namespace {

Csr ThreeRows() {
  Csr csr;
  csr.offsets = {0, 2, 2, 5};
  csr.indices = {7, 1, 0, 3, 9};
  return csr;
}

TEST(Csr, RowsAreSlicesOfIndices) {
  const Csr csr = ThreeRows();
  EXPECT_EQ(csr.rows(), 3u);
  EXPECT_EQ(csr.entries(), 5u);
  EXPECT_EQ(std::vector<std::uint32_t>(csr.Row(0).begin(), csr.Row(0).end()),
            (std::vector<std::uint32_t>{7, 1}));
  EXPECT_TRUE(csr.Row(1).empty());
  EXPECT_EQ(csr.RowSize(2), 3u);
  EXPECT_NO_THROW(ValidateCsr(csr, 10));
}

TEST(Csr, EmptyHasOneOffset) {
  const Csr empty;
  EXPECT_EQ(empty.rows(), 0u);
  EXPECT_NO_THROW(ValidateCsr(empty));
}

TEST(Csr, ValidationRejectsEachMalformation) {
  Csr no_offsets = ThreeRows();
  no_offsets.offsets.clear();
  EXPECT_THROW(ValidateCsr(no_offsets), Error);

  Csr nonzero_start = ThreeRows();
  nonzero_start.offsets[0] = 1;
  EXPECT_THROW(ValidateCsr(nonzero_start), Error);

  Csr decreasing = ThreeRows();
  decreasing.offsets = {0, 3, 2, 5};
  EXPECT_THROW(ValidateCsr(decreasing), Error);

  Csr short_end = ThreeRows();
  short_end.offsets.back() = 4;
  EXPECT_THROW(ValidateCsr(short_end), Error);

  EXPECT_THROW(ValidateCsr(ThreeRows(), 9), Error);  // index 9 is not < 9
}

TEST(Cuda, AvailabilityAlwaysAnswersWithAReason) {
  const Availability& availability = cuda::Available();
  if (availability.available) {
    EXPECT_FALSE(cuda::DeviceName().empty());
  } else {
    EXPECT_FALSE(availability.reason.empty());
    EXPECT_TRUE(cuda::DeviceName().empty());
  }
}

// The copies behind the benchmarks' GPU limits (memcpy_cuda,
// memcpy_cuda_one_block) move every byte, the tail past the last 16-byte
// word included; the destination starts zeroed, so a copy that skipped
// bytes cannot pass on stale device memory.
TEST(Cuda, DeviceCopyMovesEveryByteWholeAndByOneBlock) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  for (const std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16},
        std::size_t{17}, std::size_t{4095}, std::size_t{(1 << 20) + 3}}) {
    std::vector<unsigned char> source(bytes);
    for (std::size_t i = 0; i < bytes; ++i) {
      source[i] = static_cast<unsigned char>(i * 37 + 11);
    }
    for (const int threads : {0, 32, 1024}) {
      cuda::DeviceCopy copy(source);
      EXPECT_EQ(copy.Destination(), std::vector<unsigned char>(bytes, 0));
      const double seconds =
          threads == 0 ? copy.TimeWholeDevice() : copy.TimeOneBlock(threads);
      EXPECT_GE(seconds, 0.0);
      EXPECT_EQ(copy.Destination(), source)
          << bytes << " bytes, " << threads << " threads (0: cudaMemcpy)";
    }
  }
  cuda::DeviceCopy copy(std::vector<unsigned char>(64, 1));
  EXPECT_THROW(copy.TimeOneBlock(16), Error);
  EXPECT_THROW(copy.TimeOneBlock(2048), Error);
#endif
}

TEST(Simd, AtLeastOneTargetRuns) {
  EXPECT_FALSE(simd::RunnableTargets().empty());
  EXPECT_NE(simd::BestTargetName(), "none");
}

// Loops that force each target in turn and ask for the list again (inside a
// property, say) must still see every target, not only the forced one.
TEST(Simd, ForcingATargetLeavesTheListWhole) {
  const std::vector<std::int64_t> all = simd::RunnableTargets();
  for (const std::int64_t target : all) {
    simd::ForceTarget(target);
    EXPECT_EQ(simd::RunnableTargets(), all) << simd::TargetName(target);
    EXPECT_EQ(simd::BestTargetName(), simd::TargetName(all.front()));
  }
  simd::ForceTarget(0);
}

}  // namespace
}  // namespace adj

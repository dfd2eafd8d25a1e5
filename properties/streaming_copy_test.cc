// The streaming copy is the limit the reports divide by: a copy that dropped
// or shifted bytes would make every ratio wrong, so it is tested like a kernel.
#include "benchmarks/streaming_copy.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/common/simd.h"

namespace adj::bench {
namespace {

std::string TargetCaseName(const ::testing::TestParamInfo<std::int64_t>& p) {
  return simd::TargetName(p.param);
}

class StreamingCopyTest : public ::testing::TestWithParam<std::int64_t> {
 protected:
  void SetUp() override { simd::ForceTarget(GetParam()); }
  void TearDown() override { simd::ForceTarget(0); }
};

// Every length up to 300 at every source and destination misalignment within
// a 64-byte line: head, vector body and tail all meet both buffers' edges.
TEST_P(StreamingCopyTest, CopiesEveryLengthAtEveryAlignment) {
  constexpr std::size_t kMaxLength = 300;
  constexpr std::size_t kLine = 64;
  std::vector<unsigned char> source(kMaxLength + 2 * kLine);
  for (std::size_t i = 0; i < source.size(); ++i) {
    source[i] = static_cast<unsigned char>(i * 37 + 11);
  }
  for (std::size_t from_offset = 0; from_offset < kLine; from_offset += 7) {
    for (std::size_t to_offset = 0; to_offset < kLine; ++to_offset) {
      for (std::size_t length = 0; length <= kMaxLength; ++length) {
        std::vector<unsigned char> target(kMaxLength + 2 * kLine, 0xAA);
        StreamingCopy(source.data() + from_offset, target.data() + to_offset,
                      length);
        for (std::size_t i = 0; i < target.size(); ++i) {
          const bool inside = i >= to_offset && i < to_offset + length;
          const unsigned char expected =
              inside ? source[from_offset + i - to_offset] : 0xAA;
          ASSERT_EQ(target[i], expected)
              << "length " << length << ", source offset " << from_offset
              << ", target offset " << to_offset << ", byte " << i;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, StreamingCopyTest,
                         ::testing::ValuesIn(simd::RunnableTargets()),
                         TargetCaseName);

}  // namespace
}  // namespace adj::bench

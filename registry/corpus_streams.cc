// prefix_sum's, compaction's and hash_set's exported cases: lengths at the
// edges of power-of-two blocks, sums that wrap modulo 2^32, flags other
// than 1, keys that collide and the largest key, and the oracle's outputs.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "checks/compaction.h"
#include "checks/hash_set.h"
#include "checks/prefix_sum.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/corpus_families.h"

namespace adj::registry {
namespace {

Array Of(const std::vector<std::uint32_t>& values) {
  return IntegerArray({values.size()}, {values.begin(), values.end()});
}

std::vector<std::uint32_t> Random(std::size_t n, std::uint32_t below,
                                  std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<std::uint32_t> values(n);
  for (auto& value : values)
    value = static_cast<std::uint32_t>(random() % below);
  return values;
}

CorpusCase ScanCase(std::string name, std::string purpose,
                    const std::vector<std::uint32_t>& values, bool inclusive) {
  const auto expected = checks::prefix_sum::ExpectedOf(
      inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive,
      values);
  return {
      std::move(name),
      std::move(purpose),
      {{"values", Of(values)}, {"inclusive", ScalarArray(inclusive ? 1 : 0)}},
      {{"scan", Of(expected.scan)}, {"total", ScalarArray(expected.total)}}};
}

CorpusCase CompactCase(std::string name, std::string purpose,
                       const std::vector<std::uint32_t>& values,
                       const std::vector<std::uint8_t>& flags) {
  std::vector<std::uint32_t> wide_flags(flags.begin(), flags.end());
  return {std::move(name),
          std::move(purpose),
          {{"values", Of(values)}, {"flags", Of(wide_flags)}},
          {{"kept", Of(checks::compaction::Expected(values, flags))}}};
}

}  // namespace

std::vector<CorpusCase> PrefixSumCorpus() {
  std::vector<CorpusCase> cases;
  cases.push_back(ScanCase("empty", "no values", {}, false));
  cases.push_back(ScanCase("single_max", "one value, 2^32 - 1, inclusive",
                           {0xffffffffu}, true));
  cases.push_back(ScanCase(
      "wrapping_sums",
      "1,025 values of 2^32 - 1, exclusive: every sum wraps modulo 2^32",
      std::vector<std::uint32_t>(1025, 0xffffffffu), false));
  for (const std::size_t n : {255, 256, 257, 4095, 4096, 4097, 65537}) {
    cases.push_back(ScanCase(
        "length_" + std::to_string(n),
        std::to_string(n) + " values below 2^32, inclusive: a length at the "
                            "edge of a power-of-two block or tile",
        Random(n, 0xffffffffu, n), true));
  }
  cases.push_back(ScanCase("zeros", "1,000 zeros, exclusive",
                           std::vector<std::uint32_t>(1000, 0), false));
  return cases;
}

std::vector<CorpusCase> CompactionCorpus() {
  std::vector<CorpusCase> cases;
  const std::vector<std::uint32_t> values = Random(1000, 0xffffffffu, 1);
  cases.push_back(CompactCase("empty", "no values", {}, {}));
  cases.push_back(CompactCase("none_removed", "1,000 values, every flag 0",
                              values, std::vector<std::uint8_t>(1000, 0)));
  cases.push_back(CompactCase("all_removed", "1,000 values, every flag 1",
                              values, std::vector<std::uint8_t>(1000, 1)));
  std::vector<std::uint8_t> alternating(1000);
  for (std::size_t k = 0; k < alternating.size(); ++k) alternating[k] = k % 2;
  cases.push_back(CompactCase("alternating", "every other value removed",
                              values, alternating));
  std::vector<std::uint8_t> last(1000, 1);
  last.back() = 0;
  cases.push_back(
      CompactCase("last_kept", "only the last value kept", values, last));
  std::vector<std::uint8_t> wide(1000, 0);
  for (std::size_t k = 0; k < wide.size(); k += 3) wide[k] = k % 2 ? 2 : 255;
  cases.push_back(CompactCase("flags_not_one",
                              "flags of 2 and 255: any nonzero flag removes",
                              values, wide));
  std::vector<std::uint8_t> random_flags(100003);
  std::mt19937_64 random(2);
  for (auto& flag : random_flags)
    flag = static_cast<std::uint8_t>(random() % 2);
  cases.push_back(CompactCase("long_random",
                              "100,003 values, random flags: a length past "
                              "every power-of-two block",
                              Random(100003, 0xffffffffu, 3), random_flags));
  return cases;
}

std::vector<CorpusCase> HashSetCorpus() {
  const auto set_case = [](std::string name, std::string purpose,
                           const std::vector<std::uint32_t>& inserted,
                           const std::vector<std::uint32_t>& queries) {
    const auto expected = checks::hash_set::ExpectedOf(inserted);
    const auto answers = checks::hash_set::AnswersOf(expected, queries);
    return CorpusCase{std::move(name),
                      std::move(purpose),
                      {{"inserted", Of(inserted)}, {"queries", Of(queries)}},
                      {{"keys", Of(expected.keys)},
                       {"answers", Of({answers.begin(), answers.end()})}}};
  };
  std::vector<CorpusCase> cases;
  cases.push_back(set_case("empty", "nothing inserted, three queries", {},
                           {0, 1, 0xfffffffeu}));
  std::vector<std::uint32_t> repeats;
  for (std::uint32_t k = 0; k < 3000; ++k) repeats.push_back(k % 7);
  cases.push_back(
      set_case("repeats", "3,000 inserts of 7 keys", repeats, {0, 6, 7, 8}));
  std::vector<std::uint32_t> colliding;
  for (std::uint32_t k = 0; k < 2000; ++k) colliding.push_back(k << 16);
  cases.push_back(set_case(
      "colliding_keys",
      "2,000 multiples of 2^16: keys a hash of the low bits or a modulo "
      "by a power of two piles into one slot",
      colliding, {0, 1u << 16, 1u << 15, 2000u << 16}));
  cases.push_back(set_case("largest_key",
                           "0xFFFFFFFE, the largest key (0xFFFFFFFF marks a "
                           "free slot), and 0",
                           {0xfffffffeu, 0, 0xfffffffeu},
                           {0xfffffffeu, 0xffffffffu, 0, 1}));
  cases.push_back(set_case(
      "random", "100,000 random keys, 1,000 random queries (mostly absent)",
      Random(100000, 0xffffffffu, 4), Random(1000, 0xffffffffu, 5)));
  return cases;
}

}  // namespace adj::registry

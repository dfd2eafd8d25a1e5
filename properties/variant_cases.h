#pragma once

// Runs a family's tests once per row of its variant table, and SIMD rows once
// per Highway target this CPU supports, so that every implementation is tested
// against the oracle. CUDA rows skip with the reason when no GPU is usable.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/simd.h"
#include "algorithms/common/variant.h"

namespace adj::testing {

struct VariantCase {
  std::string name;         // test name suffix: "serial", "simd_AVX2", ...
  std::size_t index;        // row in the variant table
  std::int64_t hwy_target;  // 0 unless a SIMD row pinned to one target
};

// gtest prints parameters in failure messages; the name says it all.
inline void PrintTo(const VariantCase& c, std::ostream* os) { *os << c.name; }

template <typename Fn, typename Traits>
std::vector<VariantCase> CasesOf(std::span<const Variant<Fn, Traits>> table) {
  std::vector<VariantCase> cases;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::string name(table[i].name);
    if (table[i].backend == Backend::kSimd) {
      for (const std::int64_t target : simd::RunnableTargets()) {
        cases.push_back({name + "_" + simd::TargetName(target), i, target});
      }
    } else {
      cases.push_back({name, i, 0});
    }
  }
  return cases;
}

// The cases of the rows `keep` accepts: for a property that only some
// variants have, so that the others are not instantiated at all rather
// than skipped.
template <typename Fn, typename Traits, typename Keep>
std::vector<VariantCase> CasesWhere(std::span<const Variant<Fn, Traits>> table,
                                    Keep keep) {
  std::vector<VariantCase> cases = CasesOf(table);
  std::erase_if(cases,
                [&](const VariantCase& c) { return !keep(table[c.index]); });
  return cases;
}

// The cases of one backend's rows, e.g. the OpenMP variants for a
// property about thread counts.
template <typename Fn, typename Traits>
std::vector<VariantCase> CasesOfBackend(
    std::span<const Variant<Fn, Traits>> table, Backend backend) {
  return CasesWhere(table, [backend](const Variant<Fn, Traits>& variant) {
    return variant.backend == backend;
  });
}

// The rows with a twin (the single-threaded row they must equal): the
// table, not a hand list, says which pairs a twin test compares.
template <typename Fn, typename Traits>
std::vector<VariantCase> CasesWithTwin(
    std::span<const Variant<Fn, Traits>> table) {
  return CasesWhere(table, [](const Variant<Fn, Traits>& variant) {
    return !variant.twin.empty();
  });
}

// The row `variant.twin` names; fails the calling test when there is none.
template <typename Fn, typename Traits>
const Variant<Fn, Traits>& TwinOf(std::span<const Variant<Fn, Traits>> table,
                                  const Variant<Fn, Traits>& variant) {
  const Variant<Fn, Traits>* twin = FindVariant(table, variant.twin);
  if (twin == nullptr) {
    ADD_FAILURE() << variant.name << "'s twin " << variant.twin
                  << " is not in its table";
    return variant;
  }
  return *twin;
}

// Runs `each(threads)` with OpenMP set to 1, 2, ..., max_threads threads
// (more than this machine's cores on purpose: uneven slices, idle threads),
// then restores the caller's thread count.
template <typename Each>
void OnEveryThreadCount(int max_threads, Each each) {
  const int default_threads = omp_get_max_threads();
  for (int threads = 1; threads <= max_threads; ++threads) {
    omp_set_num_threads(threads);
    SCOPED_TRACE(std::to_string(threads) + " threads");
    each(threads);
  }
  omp_set_num_threads(default_threads);
}

inline std::string CaseName(const ::testing::TestParamInfo<VariantCase>& info) {
  return info.param.name;
}

// Fixture over the table returned by `kTable` (a family's Variants()).
template <auto kTable>
class VariantTest : public ::testing::TestWithParam<VariantCase> {
 protected:
  void SetUp() override {
    const Availability availability = CanRun(variant());
    if (!availability.available) GTEST_SKIP() << availability.reason;
    if (GetParam().hwy_target != 0) simd::ForceTarget(GetParam().hwy_target);
  }
  void TearDown() override {
    if (GetParam().hwy_target != 0) simd::ForceTarget(0);
  }
  const auto& variant() const { return kTable()[GetParam().index]; }
};

}  // namespace adj::testing

// hash_set/<variant>/<insert|lookup>/load:<P>: a set sized for 2^23 slots
// (capacity 6.5M keys) filled to P percent of its slots, with distinct
// random keys (raw mt19937_64 output, the empty marker skipped):
//   insert: one InsertAll of the keys into the cleared set (the clear is
//           not timed: manual time);
//   lookup: one ContainsAll of as many keys, half present, half absent, in
//           the filled set.
// items_per_second = keys per second; beside hash_set/memcpy*/<op>/load:P,
// copies of the keys' bytes (moving them twice: read, then stored). Counters:
// keys, load (percent of slots), threads, verified (1: the set held exactly the
// keys / every answer right).
// With a GPU, hash_set/cuda_lock_free/<op>/load:<P>/device:1 times the
// kernel alone on keys already on the device (one insert pass into the
// emptied table, or one lookup), by CUDA events (DeviceResidentSet), beside
// hash_set/memcpy_cuda/<op>/load:<P> (the same bytes copied on the
// device).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "algorithms/hash_set/hash_set.h"
#if ADJ_HAVE_CUDA
#include "algorithms/hash_set/device_resident_set.h"
#endif
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/hash_set.h"

namespace adj::hash_set {
namespace {

constexpr std::size_t kCapacity = 6'500'000;
constexpr std::int64_t kLoads[] = {25, 50, 75};

std::size_t KeysAt(std::int64_t load) {
  return SlotsFor(kCapacity) * static_cast<std::size_t>(load) / 100;
}

struct Keys {
  std::vector<std::uint32_t> present;  // distinct
  std::vector<std::uint32_t> queries;  // half present, half absent
  // The oracle's set of `present` and its answers to `queries`.
  checks::hash_set::Expected expected;
  std::vector<std::uint8_t> answers;
};

const Keys& KeysFor(std::int64_t load) {
  static std::map<std::int64_t, std::unique_ptr<Keys>> cache;
  auto& keys = cache[load];
  if (!keys) {
    keys = std::make_unique<Keys>();
    const std::size_t n = KeysAt(load);
    std::mt19937_64 engine(static_cast<std::uint64_t>(load));
    std::unordered_set<std::uint32_t> seen;
    seen.reserve(2 * n);
    std::vector<std::uint32_t> absent;
    while (keys->present.size() < n || absent.size() < n / 2) {
      const auto key = static_cast<std::uint32_t>(engine());
      if (key == kEmptyKey || !seen.insert(key).second) continue;
      if (keys->present.size() < n) {
        keys->present.push_back(key);
      } else {
        absent.push_back(key);
      }
    }
    keys->queries.assign(keys->present.begin(),
                         keys->present.begin() + static_cast<long>(n - n / 2));
    keys->queries.insert(keys->queries.end(), absent.begin(), absent.end());
    keys->expected = checks::hash_set::ExpectedOf(keys->present);
    keys->answers = checks::hash_set::AnswersOf(keys->expected, keys->queries);
  }
  return *keys;
}

void Describe(benchmark::State& state, const Variant& variant,
              std::int64_t load, std::size_t keys) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(keys));
  state.counters["keys"] = static_cast<double>(keys);
  state.counters["load"] = static_cast<double>(load);
  if (variant.backend == Backend::kCuda) {
    bench::DescribeGpuRun(state);
    return;
  }
  bench::DescribeCpuRun(
      state, variant.backend == Backend::kOpenMp ? omp_get_max_threads() : 1,
      "cpu");
}

// False (the row skipped, saying why) when the variant cannot run here.
bool Runnable(benchmark::State& state, const Variant& variant) {
  const Availability availability = CanRun(variant);
  if (!availability.available) state.SkipWithError(availability.reason.c_str());
  return availability.available;
}

void BenchInsert(benchmark::State& state, const Variant& variant) {
  if (!Runnable(state, variant)) return;
  const std::int64_t load = state.range(0);
  const Keys& keys = KeysFor(load);
  const auto set = variant.run(kCapacity);
  // Untimed: a first bulk insert may pay one-off costs that the steady state
  // does not (cuda_lock_free's on the H100:
  // docs/hash_set.md#decisions-and-dead-ends).
  set->InsertAll(keys.present);
  std::size_t added = 0;
  for (auto _ : state) {
    set->Clear();
    const auto start = std::chrono::steady_clock::now();
    added = set->InsertAll(keys.present);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  const std::string difference =
      checks::hash_set::FirstDifferenceAfterFilling(keys.expected, added, *set);
  if (!difference.empty()) {
    state.SkipWithError(
        ("the set differs from the oracle's: " + difference).c_str());
    return;
  }
  state.counters["verified"] = 1;
  Describe(state, variant, load, keys.present.size());
}

void BenchLookup(benchmark::State& state, const Variant& variant) {
  if (!Runnable(state, variant)) return;
  const std::int64_t load = state.range(0);
  const Keys& keys = KeysFor(load);
  const auto set = variant.run(kCapacity);
  set->InsertAll(keys.present);
  std::vector<std::uint8_t> found(keys.queries.size());
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    set->ContainsAll(keys.queries, found);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  const std::string difference = checks::hash_set::FirstDifferenceInAnswers(
      keys.answers, keys.queries, found);
  if (!difference.empty()) {
    state.SkipWithError(("a lookup answered wrong: " + difference).c_str());
    return;
  }
  state.counters["verified"] = 1;
  Describe(state, variant, load, keys.queries.size());
}

#if ADJ_HAVE_CUDA
// Device-resident: the kernel alone, by CUDA events, beside
// hash_set/memcpy_cuda/... (RegisterDeviceCopyLimits).
void BenchDeviceResident(benchmark::State& state, bool insert) {
  if (!bench::GpuUsable(state)) return;
  const std::int64_t load = state.range(0);
  const Keys& keys = KeysFor(load);
  try {
    DeviceResidentSet set(kCapacity, keys.present, keys.queries);
    set.TimeInsert();
    std::string difference = checks::hash_set::FirstDifferenceInKeys(
        keys.expected, set.Size(), set.Keys());
    if (difference.empty() && !insert) {
      set.TimeLookup();
      difference = checks::hash_set::FirstDifferenceInAnswers(
          keys.answers, keys.queries, set.Found());
    }
    if (!difference.empty()) {
      state.SkipWithError(
          ("the device set differs from the oracle: " + difference).c_str());
      return;
    }
    for (auto _ : state) {
      state.SetIterationTime(insert ? set.TimeInsert() : set.TimeLookup());
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  const std::size_t count = insert ? keys.present.size() : keys.queries.size();
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(count));
  state.counters["keys"] = static_cast<double>(count);
  state.counters["load"] = static_cast<double>(load);
  state.counters["verified"] = 1;
  bench::DescribeGpuRun(state, "device memory, kernel time");
}
#endif

void RegisterAll() {
  bench::DescribeTable("hash_set", "variants", Variants());
  const std::vector<std::int64_t> loads(std::begin(kLoads), std::end(kLoads));
  for (const char* op : {"insert", "lookup"}) {
    const bool insert = std::string(op) == "insert";
    const auto bytes_of = [insert](std::int64_t load) {
      const std::size_t keys =
          insert ? KeysAt(load)
                 : KeysAt(load) - KeysAt(load) / 2 + KeysAt(load) / 2;
      return 2 * keys * sizeof(std::uint32_t);  // read, then stored
    };
    const auto items_of = [](std::int64_t load) {
      return static_cast<std::int64_t>(KeysAt(load));
    };
    bench::RegisterMemcpyLimits("hash_set", op, "load", loads, bytes_of,
                                items_of);
#if ADJ_HAVE_CUDA
    bench::RegisterDeviceCopyLimits("hash_set", op, "load", loads, bytes_of,
                                    items_of);
#endif
    for (const Variant& variant : Variants()) {
      auto* registered = benchmark::RegisterBenchmark(
          ("hash_set/" + std::string(variant.name) + "/" + op).c_str(),
          [&variant, insert](benchmark::State& state) {
            insert ? BenchInsert(state, variant) : BenchLookup(state, variant);
          });
      registered->ArgName("load")->UseManualTime()->Unit(
          benchmark::kMillisecond);
      for (const std::int64_t load : loads) registered->Arg(load);
#if ADJ_HAVE_CUDA
      if (variant.backend != Backend::kCuda) continue;
      auto* resident = benchmark::RegisterBenchmark(
          ("hash_set/" + std::string(variant.name) + "/" + op).c_str(),
          [insert](benchmark::State& state) {
            BenchDeviceResident(state, insert);
          });
      resident->ArgNames({"load", "device"})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
      for (const std::int64_t load : loads) resident->Args({load, 1});
#endif
    }
  }
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::hash_set

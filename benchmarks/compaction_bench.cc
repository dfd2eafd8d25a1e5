// compaction/<variant>/keep<P>/n:<n>: stable removal of flagged uint32
// items, P percent kept (keep90: the fracture update's case, a few particles
// removed; keep50: the worst for branches; keep10), flags drawn at random
// per item; beside compaction/memcpy*/keep<P>/n:<n>, copies that move as
// many bytes: a compaction reads the values and flags and writes the kept
// values, a copy reads and writes half that many (memcpy_limit.h).
// bytes_per_second counts bytes read plus bytes written for every row, as in
// prefix_sum; counters
// kept and verified (1: the output matched std::copy_if once).
// With a GPU, compaction/<cuda variant>/keep<P>/n:<n>/device:1 times the
// kernels alone on values and flags already on the device, by CUDA events
// (DeviceCompactor), beside compaction/memcpy_cuda/keep<P>/n:<n> (the same
// bytes copied on the device).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/common/simd.h"
#include "algorithms/compaction/compaction.h"
#if ADJ_HAVE_CUDA
#include "algorithms/compaction/device_compactor.h"
#endif
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/compaction.h"
#include "scenes/arrays.h"

namespace adj::compaction {
namespace {

constexpr int kMinLog2 = 16;
constexpr int kMaxLog2 = 26;
constexpr int kKeptPercents[] = {90, 50, 10};

struct Scene {
  std::vector<std::uint32_t> values;
  std::vector<std::uint8_t> flags;
  std::vector<std::uint32_t> expected;
};

// Flags from raw mt19937_64 output (no implementation-defined
// distribution): item removed when its draw mod 100 >= the kept percent.
const Scene& SceneOf(int kept_percent, std::int64_t n) {
  static std::map<std::pair<int, std::int64_t>, std::unique_ptr<Scene>> scenes;
  auto& scene = scenes[{kept_percent, n}];
  if (!scene) {
    scene = std::make_unique<Scene>();
    const auto size = static_cast<std::size_t>(n);
    scene->values = scenes::RandomWords(size, static_cast<std::uint64_t>(n));
    scene->flags.resize(size);
    std::mt19937_64 engine(static_cast<std::uint64_t>(kept_percent) * 7919u +
                           static_cast<std::uint64_t>(n));
    for (std::uint8_t& flag : scene->flags) {
      flag = engine() % 100 >= static_cast<std::uint64_t>(kept_percent) ? 1 : 0;
    }
    scene->expected = checks::compaction::Expected(scene->values, scene->flags);
  }
  return *scene;
}

std::size_t BytesMoved(int kept_percent, std::int64_t n) {
  const auto size = static_cast<std::size_t>(n);
  return size * (sizeof(std::uint32_t) + sizeof(std::uint8_t)) +
         size * static_cast<std::size_t>(kept_percent) / 100 *
             sizeof(std::uint32_t);
}

struct Verdict {
  std::size_t kept = 0;
  std::string difference;  // from the oracle's output; empty: none
};

// The oracle's verdict on a row (variant, kept percent, size), found once:
// the quick sweep's repetitions of the row reuse it instead of running and
// comparing up to 2^26 items again outside the timed loop.
const Verdict& VerdictOf(const Variant& variant, int kept_percent,
                         std::int64_t n, const Scene& scene) {
  static std::map<std::tuple<std::string_view, int, std::int64_t>, Verdict>
      verdicts;
  const auto key = std::make_tuple(variant.name, kept_percent, n);
  if (const auto found = verdicts.find(key); found != verdicts.end()) {
    return found->second;
  }
  std::vector<std::uint32_t> out(scene.values.size());
  Verdict verdict;
  verdict.kept = variant.run(scene.values, scene.flags, out);
  verdict.difference =
      checks::compaction::FirstDifference(scene.expected, verdict.kept, out);
  return verdicts.emplace(key, std::move(verdict)).first->second;
}

// Rates and counters of a verified row that kept `kept` of n items.
void SetCounters(benchmark::State& state, int kept_percent, std::int64_t n,
                 std::size_t kept) {
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(
      state.iterations() *
      static_cast<std::int64_t>(BytesMoved(kept_percent, n)));
  state.counters["n"] = static_cast<double>(n);
  state.counters["kept"] = static_cast<double>(kept);
  state.counters["verified"] = 1;
}

void BenchVariant(benchmark::State& state, const Variant& variant,
                  int kept_percent) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  const std::int64_t n = state.range(0);
  const Scene& scene = SceneOf(kept_percent, n);
  const Verdict& verdict = VerdictOf(variant, kept_percent, n, scene);
  if (!verdict.difference.empty()) {
    state.SkipWithError(
        ("output differs from the oracle: " + verdict.difference).c_str());
    return;
  }
  const std::size_t kept = verdict.kept;
  // One output buffer for every row, its pages already written, rather than
  // up to 256 MB allocated and zeroed again for each repetition.
  static std::vector<std::uint32_t> buffer;
  if (buffer.size() < scene.values.size()) buffer.resize(scene.values.size());
  const std::span<std::uint32_t> out(buffer.data(), scene.values.size());
  for (auto _ : state) {
    benchmark::DoNotOptimize(variant.run(scene.values, scene.flags, out));
    benchmark::ClobberMemory();
  }
  SetCounters(state, kept_percent, n, kept);
  if (variant.backend == Backend::kCuda) {
    bench::DescribeGpuRun(state);
    return;
  }
  bench::DescribeCpuRun(
      state, ThreadsOf(variant, n),
      variant.backend == Backend::kSimd || variant.backend == Backend::kOpenMp
          ? "cpu simd:" + simd::BestTargetName()
          : "cpu");
}

#if ADJ_HAVE_CUDA
// Device-resident: the kernels alone, by CUDA events, beside
// compaction/memcpy_cuda/... (RegisterDeviceCopyLimits).
void BenchDeviceResident(benchmark::State& state, const Variant& variant,
                         int kept_percent) {
  if (!bench::GpuUsable(state)) return;
  const std::int64_t n = state.range(0);
  const Scene& scene = SceneOf(kept_percent, n);
  std::size_t kept = 0;
  try {
    DeviceCompactor compactor(scene.values, scene.flags);
    compactor.TimeCompact(variant);
    const std::vector<std::uint32_t> out = compactor.Kept();
    kept = out.size();
    const std::string difference =
        checks::compaction::FirstDifference(scene.expected, kept, out);
    if (!difference.empty()) {
      state.SkipWithError(
          ("output differs from the oracle: " + difference).c_str());
      return;
    }
    for (auto _ : state) {
      state.SetIterationTime(compactor.TimeCompact(variant));
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, kept_percent, n, kept);
  bench::DescribeGpuRun(state, "device memory, kernel time");
}
#endif

void RegisterAll() {
  bench::DescribeTable("compaction", "variants", Variants());
  const auto sizes = bench::PowersOfTwo(kMinLog2, kMaxLog2);
  for (const int kept_percent : kKeptPercents) {
    const std::string scene = "keep" + std::to_string(kept_percent);
    bench::RegisterMemcpyLimits(
        "compaction", scene, "n", sizes,
        [kept_percent](std::int64_t n) { return BytesMoved(kept_percent, n); },
        [](std::int64_t n) { return n; });
    for (const Variant& variant : Variants()) {
      auto* registered = benchmark::RegisterBenchmark(
          ("compaction/" + std::string(variant.name) + "/" + scene).c_str(),
          [&variant, kept_percent](benchmark::State& state) {
            BenchVariant(state, variant, kept_percent);
          });
      registered->ArgName("n")->UseRealTime();
      for (const std::int64_t n : sizes) registered->Arg(n);
#if ADJ_HAVE_CUDA
      if (variant.backend != Backend::kCuda) continue;
      auto* resident = benchmark::RegisterBenchmark(
          ("compaction/" + std::string(variant.name) + "/" + scene).c_str(),
          [&variant, kept_percent](benchmark::State& state) {
            BenchDeviceResident(state, variant, kept_percent);
          });
      resident->ArgNames({"n", "device"})->UseManualTime();
      for (const std::int64_t n : sizes) resident->Args({n, 1});
#endif
    }
#if ADJ_HAVE_CUDA
    bench::RegisterDeviceCopyLimits(
        "compaction", scene, "n", sizes,
        [kept_percent](std::int64_t n) { return BytesMoved(kept_percent, n); },
        [](std::int64_t n) { return n; });
#endif
  }
}

const bench::Registrar registrar(&RegisterAll, bench::kQuickSweepWithSpread);

}  // namespace
}  // namespace adj::compaction

// prefix_sum/<variant>/counts/n:<n>: inclusive scans of per-row counts (the
// scan inside every CSR build), beside prefix_sum/memcpy*/counts/n:<n>, which
// move the same bytes (memcpy_limit.h). bytes_per_second counts 4 bytes read
// and 4 written per element for all of them.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/common/simd.h"
#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/prefix_sum/scan_tiles.h"
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/prefix_sum.h"
#include "scenes/arrays.h"
#if ADJ_HAVE_CUDA
#include "algorithms/prefix_sum/device_scanner.h"
#endif

namespace adj::prefix_sum {
namespace {

using Words = std::vector<std::uint32_t>;

constexpr char kScene[] = "counts";
constexpr int kMinLog2 = 10;
constexpr int kCpuMaxLog2 = 26;
constexpr int kGpuMaxLog2 = 28;
constexpr std::size_t kBytesPerElement = 2 * sizeof(std::uint32_t);

struct Scene {
  Words input;
  // The oracle's inclusive scan and total, to verify each variant once.
  checks::prefix_sum::Expected expected;
};

// One input per size, shared by every variant so that all see the same data.
const Scene& SceneOf(std::int64_t n) {
  static std::map<std::int64_t, std::unique_ptr<Scene>> scenes;
  auto& scene = scenes[n];
  if (!scene) {
    scene = std::make_unique<Scene>();
    scene->input = scenes::RandomCounts(static_cast<std::size_t>(n),
                                        static_cast<std::uint64_t>(n));
    scene->expected =
        checks::prefix_sum::ExpectedOf(Kind::kInclusive, scene->input);
  }
  return *scene;
}

void SetRates(benchmark::State& state, std::int64_t n) {
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n *
                          static_cast<std::int64_t>(kBytesPerElement));
  state.counters["n"] = static_cast<double>(n);
}

void BenchCpuVariant(benchmark::State& state, const Variant& variant) {
  const std::int64_t n = state.range(0);
  const Scene& scene = SceneOf(n);
  Words out(scene.input.size());
  const std::uint32_t total = variant.run(Kind::kInclusive, scene.input, out);
  const std::string difference =
      checks::prefix_sum::FirstDifference(scene.expected, out, total);
  if (!difference.empty()) {
    state.SkipWithError(
        ("output differs from the oracle: " + difference).c_str());
    return;
  }
  for (auto _ : state) {
    variant.run(Kind::kInclusive, scene.input, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  SetRates(state, n);
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(state, ThreadsOf(variant, n),
                        variant.backend == Backend::kSimd
                            ? "cpu simd:" + simd::BestTargetName()
                            : "cpu");
}

#if ADJ_HAVE_CUDA
// Device-resident: only kernel time, by CUDA events, as CUB and nvbench
// report it, beside prefix_sum/memcpy_cuda/... (RegisterDeviceCopyLimits).
// time_one(scanner) runs one scan and returns its seconds on the device.
template <typename TimeOne>
void BenchDeviceScan(benchmark::State& state, TimeOne&& time_one) {
  if (!bench::GpuUsable(state)) return;
  const std::int64_t n = state.range(0);
  const Scene& scene = SceneOf(n);
  DeviceScanner scanner(scene.input);
  time_one(scanner);
  const std::string difference = checks::prefix_sum::FirstDifference(
      scene.expected, scanner.Output(), std::nullopt);
  if (!difference.empty()) {
    state.SkipWithError(
        ("output differs from the oracle: " + difference).c_str());
    return;
  }
  state.counters["verified"] = 1;
  for (auto _ : state) state.SetIterationTime(time_one(scanner));
  SetRates(state, n);
  bench::DescribeGpuRun(state, "device memory, kernel time");
}

void BenchGpu(benchmark::State& state, const Variant& variant) {
  BenchDeviceScan(state, [&](DeviceScanner& scanner) {
    return scanner.TimeScan(variant, Kind::kInclusive);
  });
}

// The tuning sweep: our kernel in every compiled tile shape, as rows
// prefix_sum/cuda_tile_<threads>x<items>/counts/n:<n>, registered only when
// ADJ_BENCH_SCAN_TILES=1 (tools/gpu-check.sh sets it; the figures leave
// them out, kept apart with the run's JSON). TunedScanTile's table is filled
// from what they measure.
void BenchGpuTile(benchmark::State& state, ScanTile tile) {
  BenchDeviceScan(state, [&](DeviceScanner& scanner) {
    return scanner.TimeScanWith(tile, Kind::kInclusive);
  });
  state.counters["threads_per_block"] = tile.threads;
  state.counters["items_per_thread"] = tile.items_per_thread;
}

void RegisterGpuTiles() {
  const char* wanted = std::getenv("ADJ_BENCH_SCAN_TILES");
  if (wanted == nullptr || std::string(wanted) != "1") return;
  for (const ScanTile tile : kScanTiles) {
    const std::string name =
        "prefix_sum/cuda_tile_" + std::to_string(tile.threads) + "x" +
        std::to_string(tile.items_per_thread) + "/" + kScene;
    auto* registered = benchmark::RegisterBenchmark(
        name.c_str(),
        [tile](benchmark::State& state) { BenchGpuTile(state, tile); });
    registered->ArgName("n")->UseManualTime();
    for (const int log2 : {20, 22, 24, 26, 28}) {
      registered->Arg(std::int64_t{1} << log2);
    }
  }
}

void RegisterGpu(const Variant& variant) {
  auto* registered = benchmark::RegisterBenchmark(
      ("prefix_sum/" + std::string(variant.name) + "/" + kScene).c_str(),
      [&variant](benchmark::State& state) { BenchGpu(state, variant); });
  registered->ArgName("n")->UseManualTime();
  for (const std::int64_t n : bench::GpuPowersOfTwo(kMinLog2, kGpuMaxLog2)) {
    registered->Arg(n);
  }
}
#endif

void RegisterAll() {
  bench::DescribeTable("prefix_sum", "variants", Variants());
  const auto sizes = bench::PowersOfTwo(kMinLog2, kCpuMaxLog2);
  const auto moved = [](std::int64_t n) {
    return static_cast<std::size_t>(n) * kBytesPerElement;
  };
  // The CUDA rows are timed on the device (memcpy_cuda below).
  bench::RegisterMemcpyLimits("prefix_sum", kScene, "n", sizes, moved, nullptr,
                              bench::HostRoundTrip::kNone);
  for (const Variant& variant : Variants()) {
    if (variant.backend == Backend::kCuda) {
#if ADJ_HAVE_CUDA
      RegisterGpu(variant);
#endif
      continue;
    }
    auto* registered = benchmark::RegisterBenchmark(
        ("prefix_sum/" + std::string(variant.name) + "/" + kScene).c_str(),
        [&variant](benchmark::State& state) {
          BenchCpuVariant(state, variant);
        });
    registered->ArgName("n")->UseRealTime();
    for (const std::int64_t n : sizes) registered->Arg(n);
  }
#if ADJ_HAVE_CUDA
  RegisterGpuTiles();
#endif
  bench::RegisterDeviceCopyLimits("prefix_sum", kScene, "n",
                                  bench::GpuPowersOfTwo(kMinLog2, kGpuMaxLog2),
                                  moved, [](std::int64_t n) { return n; });
}

const bench::Registrar registrar(&RegisterAll, bench::kQuickSweepWithSpread);

}  // namespace
}  // namespace adj::prefix_sum

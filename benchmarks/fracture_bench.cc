// fracture: the per-frame cluster-topology update on a blade cut through a
// voxel block with the published cluster layout, per variant: time per
// frame, where the frame's time goes (per-stage counters), the cut's
// quality counters, and the memcpy limit of the frame's bytes beside it.
// Then the belong lists' memory over 1000 frames of steady random damage,
// per belong-list kind (serial) and for data_parallel's patched Csr.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "algorithms/fracture/fracture.h"
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/fracture.h"
#include "scenes/solids.h"

namespace adj::fracture {
namespace {

// The published layout at every size: cubes of side 8 every 5 nodes (about
// 700 clusters of up to 512 particles at 90k particles), CLUSTER_MAX_SIZE
// 2048, expansion below 64.
constexpr std::uint32_t kCubeSide = 8;
constexpr std::uint32_t kCubeStride = 5;

// The least a frame moves: the predicted positions read once (12 bytes a
// particle) and the node flags read once (a byte a particle on a block).
std::size_t FrameBytes(std::int64_t particles) {
  return static_cast<std::size_t>(particles) * 13;
}

struct Cut {
  scenes::Voxels voxels;
  State initial;
  Params params;
  scenes::Blade blade;
  std::uint32_t frames = 0;
};

// A block of side L (L^3 particles) cut by a blade in the plane x = L / 2
// across the middle half of z, one node deeper per frame, down to
// `cut_depth` of L: 2 layers x L/2 x depth particles are removed, about 1 %
// of the block at cut_depth 0.45.
Cut BladeBlock(std::uint32_t side) {
  Cut cut;
  cut.voxels = scenes::Block(side, side, side);
  std::vector<Coord> coords;
  for (const auto& c : cut.voxels.cells) coords.push_back({c[0], c[1], c[2]});
  cut.initial =
      MakeState({side, side, side}, std::move(coords),
                scenes::CubeClusters(cut.voxels, kCubeSide, kCubeStride));
  cut.params.damage_distance = 1.5f;
  cut.params.max_cluster_size = 2048;
  cut.params.min_cluster_size = 64;
  cut.blade = {static_cast<float>(side / 2) - 0.5f, 1.0f, side / 4,
               side / 4 + side / 2, 1.0f};
  cut.frames = static_cast<std::uint32_t>(std::lround(0.45 * side));
  return cut;
}

void RunCut(benchmark::State& state, const Variant& variant) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  const auto side = static_cast<std::uint32_t>(
      std::lround(std::cbrt(static_cast<double>(state.range(0)))));
  const Cut cut = BladeBlock(side);
  std::vector<Points> positions;
  for (std::uint32_t f = 0; f < cut.frames; ++f) {
    positions.push_back(scenes::BladePositions(cut.voxels, cut.blade, f));
  }
  FrameReport report;
  std::array<double, kStages> stage_seconds{};
  double removed = 0, influenced = 0, created = 0, merged = 0, inserted = 0;
  std::string verdict;
  std::size_t live = 0;
  std::size_t belong_bytes = 0;
  for (auto _ : state) {
    auto simulation = variant.run(cut.initial, cut.params);
    double seconds = 0;
    stage_seconds.fill(0);
    removed = influenced = created = merged = inserted = 0;
    for (std::uint32_t f = 0; f < cut.frames; ++f) {
      const auto start = std::chrono::steady_clock::now();
      simulation->Step(positions[f], report);
      seconds += std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
      for (std::size_t s = 0; s < kStages; ++s) {
        stage_seconds[s] += report.seconds[s];
      }
      removed += report.removed;
      influenced += report.influenced;
      created += report.new_clusters;
      merged += report.merged;
      inserted += report.inserted;
    }
    state.SetIterationTime(seconds / cut.frames);
    if (verdict.empty()) {
      const State end = simulation->Snapshot();
      verdict = checks::fracture::FirstBrokenInvariant(
          end, simulation->BelongLists(), cut.params);
      if (verdict.empty()) {
        verdict = checks::fracture::FirstUnclusteredSurvivor(cut.initial, end);
      }
      if (verdict.empty()) verdict = "ok";
      live = end.clusters.Live();
    }
    belong_bytes = simulation->BelongBytes();
  }
  if (verdict != "ok") {
    state.SkipWithError(("invariant broken: " + verdict).c_str());
    return;
  }
  const double frames = cut.frames;
  for (std::size_t s = 0; s < kStages; ++s) {
    state.counters[std::string("stage_ms_") +
                   std::string(StageName(static_cast<Stage>(s)))] =
        1e3 * stage_seconds[s] / frames;
  }
  state.counters["frames"] = frames;
  state.counters["particles"] = static_cast<double>(cut.initial.Particles());
  state.counters["clusters_initial"] =
      static_cast<double>(cut.initial.clusters.Live());
  state.counters["clusters_final"] = static_cast<double>(live);
  state.counters["removed"] = removed;
  state.counters["removed_percent"] =
      100.0 * removed / static_cast<double>(cut.initial.Particles());
  state.counters["influenced"] = influenced;
  state.counters["new_clusters"] = created;
  state.counters["merged"] = merged;
  state.counters["inserted"] = inserted;
  state.counters["belong_bytes"] = static_cast<double>(belong_bytes);
  state.counters["verified"] = 1;
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(cut.initial.Particles()));
  state.SetBytesProcessed(
      state.iterations() *
      static_cast<std::int64_t>(
          FrameBytes(static_cast<std::int64_t>(cut.initial.Particles()))));
  if (variant.backend == Backend::kCuda) {
    bench::DescribeGpuRun(state,
                          "each frame: positions uploaded, every stage "
                          "synchronised, counts read back");
    return;
  }
  const int threads =
      variant.backend == Backend::kOpenMp ? omp_get_max_threads() : 1;
  bench::DescribeCpuRun(state, threads, "cpu");
}

// 1000 frames of steady damage on a 32^3 block with the published
// clusters: each frame moves 2 random particles by 5 nodes (about 10
// removed a frame, about 30 % of the block by the end), so that clusters split
// and merge all along. Counters sample the belong lists' bytes and the
// live clusters every 50 frames (belong_mb_at_F, clusters_at_F).
constexpr std::uint32_t kChurnFrames = 1000;
constexpr std::uint32_t kChurnSample = 50;

void RunChurn(benchmark::State& state, const Variant& variant,
              BelongKind kind) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  const auto side = static_cast<std::uint32_t>(
      std::lround(std::cbrt(static_cast<double>(state.range(0)))));
  const scenes::Voxels voxels = scenes::Block(side, side, side);
  std::vector<Coord> coords;
  for (const auto& c : voxels.cells) coords.push_back({c[0], c[1], c[2]});
  const State initial =
      MakeState({side, side, side}, std::move(coords),
                scenes::CubeClusters(voxels, kCubeSide, kCubeStride));
  Params params;
  params.damage_distance = 1.5f;
  params.max_cluster_size = 2048;
  params.min_cluster_size = 64;
  params.belong = kind;
  std::vector<double> megabytes;
  std::vector<double> clusters;
  double seconds = 0;
  double removed = 0;
  double peak = 0;
  std::string verdict;
  for (auto _ : state) {
    auto simulation = variant.run(initial, params);
    megabytes.assign(1, static_cast<double>(simulation->BelongBytes()) / 1e6);
    clusters.assign(1, static_cast<double>(initial.clusters.Live()));
    peak = megabytes.back();
    seconds = 0;
    removed = 0;
    FrameReport report;
    for (std::uint32_t f = 0; f < kChurnFrames; ++f) {
      const Points positions = scenes::RandomDamage(voxels, 2, 5.0f, 7 + f);
      const auto start = std::chrono::steady_clock::now();
      simulation->Step(positions, report);
      seconds += std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
      removed += report.removed;
      const double now = static_cast<double>(simulation->BelongBytes()) / 1e6;
      peak = std::max(peak, now);
      if ((f + 1) % kChurnSample == 0) {
        megabytes.push_back(now);
        clusters.push_back(
            static_cast<double>(simulation->Snapshot().clusters.Live()));
      }
    }
    state.SetIterationTime(seconds / kChurnFrames);
    const State end = simulation->Snapshot();
    verdict = checks::fracture::FirstBrokenInvariant(
        end, simulation->BelongLists(), params);
  }
  if (!verdict.empty()) {
    state.SkipWithError(("invariant broken: " + verdict).c_str());
    return;
  }
  for (std::size_t k = 0; k < megabytes.size(); ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "belong_mb_at_%04zu", k * kChurnSample);
    state.counters[name] = megabytes[k];
    std::snprintf(name, sizeof name, "clusters_at_%04zu", k * kChurnSample);
    state.counters[name] = clusters[k];
  }
  state.counters["belong_mb_peak"] = peak;
  state.counters["frames"] = kChurnFrames;
  state.counters["particles"] = static_cast<double>(initial.Particles());
  state.counters["removed"] = removed;
  state.counters["removed_percent"] =
      100.0 * removed / static_cast<double>(initial.Particles());
  state.counters["verified"] = 1;
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(initial.Particles()));
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(FrameBytes(
                              static_cast<std::int64_t>(initial.Particles()))));
  const int threads =
      variant.backend == Backend::kOpenMp ? omp_get_max_threads() : 1;
  bench::DescribeCpuRun(state, threads, "cpu");
}

void RegisterAll() {
  bench::DescribeTable("fracture", "variants", Variants());
  // The goals at the liver-sized block (about 90k particles), ms
  // per frame on a 2-core machine.
  bench::DescribeGoal("fracture", "serial_ms_90k", 10);
  bench::DescribeGoal("fracture", "best_cpu_ms_90k", 4);
  // Blocks of 22^3, 45^3 (the liver-sized case, about 90k particles and 700
  // clusters) and, in the full sweep, 64^3 and 100^3 (a million).
  std::vector<std::int64_t> sizes = {22 * 22 * 22, 45 * 45 * 45};
  if (bench::CurrentSweep().full) {
    sizes.push_back(64 * 64 * 64);
    sizes.push_back(100 * 100 * 100);
  }
  bench::RegisterMemcpyLimits("fracture", "blade_block", "particles", sizes,
                              FrameBytes, nullptr, bench::HostRoundTrip::kNone);
  // The GPU rows also run the million-particle block in the quick sweep
  // (the GPU goals: 1 ms at 90k, 5 ms at 1M).
  std::vector<std::int64_t> gpu_sizes = sizes;
  if (!bench::CurrentSweep().full) gpu_sizes.push_back(100 * 100 * 100);
  bench::DescribeGoal("fracture", "cuda_ms_90k", 1);
  bench::DescribeGoal("fracture", "cuda_ms_1m", 5);
#if ADJ_HAVE_CUDA
  bench::RegisterDeviceCopyLimits("fracture", "blade_block", "particles",
                                  gpu_sizes, FrameBytes);
#endif
  for (const Variant& variant : Variants()) {
    for (const std::int64_t n :
         variant.backend == Backend::kCuda ? gpu_sizes : sizes) {
      benchmark::RegisterBenchmark(
          ("fracture/" + std::string(variant.name) + "/blade_block").c_str(),
          [&variant](benchmark::State& state) { RunCut(state, variant); })
          ->ArgName("particles")
          ->Arg(n)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  // The churn: serial with each belong-list kind, and data_parallel (its
  // own patched Csr, whatever Params::belong says).
  const std::int64_t churn = 32 * 32 * 32;
  bench::RegisterMemcpyLimits("fracture", "churn_block", "particles", {churn},
                              FrameBytes, nullptr, bench::HostRoundTrip::kNone);
  const Variant& serial = *FindVariant(Variants(), "serial");
  for (int k = 0; k < 4; ++k) {
    const auto kind = static_cast<BelongKind>(k);
    benchmark::RegisterBenchmark(("fracture/serial/churn_block/belong:" +
                                  std::string(BelongKindName(kind)))
                                     .c_str(),
                                 [&serial, kind](benchmark::State& state) {
                                   RunChurn(state, serial, kind);
                                 })
        ->ArgName("particles")
        ->Arg(churn)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  const Variant& data_parallel = *FindVariant(Variants(), "data_parallel");
  benchmark::RegisterBenchmark(
      "fracture/data_parallel/churn_block/belong:csr_patched",
      [&data_parallel](benchmark::State& state) {
        RunChurn(state, data_parallel, BelongKind::kCsrRebuilt);
      })
      ->ArgName("particles")
      ->Arg(churn)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::fracture

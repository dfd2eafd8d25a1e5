// triplet_collide/<variant>/<scene>-<order>/scheduler:<scheduler>/
// triplets:<T> (the suite's <family>/<variant>/<scene>/<arg>:<value>, with
// the schedule's source as a named argument): the
// time of one collision pass over a cloth's virtual particles (one triplet
// per triangle at its centroid, as NvCloth's VirtualParticleScene) in the
// order a scheduler produced, beside triplet_collide/memcpy*/<scene>-<order>/
// triplets:<T>, copies moving the bytes any pass must move (the triplets read
// once, the particles read and written once).
//
// Scenes: cloth grids of 64^2 and 250^2 quads (uniform diagonals, spacing
// 0.01, z = 0), in generator ("natural") and permuted order (the
// scheduling benchmark's scenes::Shuffled(mesh, 1)); the row of particles at
// y = 0 is pinned (invMass 0); two spheres and one capsule over the cloth
// catch about 30 % of the points. Schedulers: `input` (no schedule: the
// triangles' order), every simd scheduler at the consumer's width (4 for
// simd4, NativeSimdWidth() for simd_native), every warp scheduler at 32;
// serial runs on input, nvcloth_simd and nvcloth_warp (every scheduler with
// --adj_sweep=full) to show what the order alone costs a scalar pass.
//
// Each row times the variant as shipped, its input check
// (triplet_collide::Check) included; .../triplets:<T>/trusted:1 times its
// kernel alone (run_trusted on input checked before timing) on the
// variant's first schedule (input, nvcloth_simd or nvcloth_warp);
// triplet_collide/check/<scene>/scheduler:input/triplets:<T> times the check
// alone.
//
// Each iteration restores the particles (untimed) and times one pass
// (manual time). Counters: triplets, particles, width, sets, padding (the
// schedule's), collided (triplets whose point hit a shape, by the oracle on
// the same order), verified (1: the result matched the oracle once, bit for
// bit; for atomic_unscheduled on several threads, within
// the interleaving bound of checks/triplet_collide.h, with max_error its
// largest deviation),
// threads; on warp schedules replays, ideal_replays and replays_floor
// (the bank model's, algorithms/triplet_schedule/bank_model.h: what
// triplet_schedule_bench reports for the same schedule), so that kernel
// time can be set against replays from the JSON alone; kernel_us (CUDA
// rows: the kernel alone, the mean of 50 passes on
// the scene already on the device, by CUDA events (DeviceCollider), while
// the row's time includes the copies; its limits are
// triplet_collide/memcpy_cuda/... and memcpy_cuda_one_block/..., copies
// moving the same bytes on the device, by the whole GPU and by one block of
// the kernels' 1024 threads, which also report kernel_us). bytes_per_second
// counts the bytes a pass must move (padding excluded), the same as the
// memcpy rows.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/cuda.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#if ADJ_HAVE_CUDA
#include "algorithms/triplet_collide/device_collider.h"
#endif
#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/triplet_collide.h"
#include "scenes/meshes.h"

namespace adj::triplet_collide {
namespace {

using triplet_schedule::Schedule;

constexpr std::size_t kGridSides[] = {64, 250};
constexpr float kSpacing = 0.01f;  // scenes::ClothGrid's default

struct Scene {
  std::string name;  // includes the input order
  std::vector<Triplet> triplets;
  std::size_t real = 0;
  std::vector<Particle> particles;  // dummies included
  std::vector<Weight> weights;
  Shapes shapes;
};

std::vector<std::unique_ptr<Scene>>& AllScenes() {
  static std::vector<std::unique_ptr<Scene>> scenes;
  return scenes;
}

// The bytes any pass must move: the triplets read once, the particles
// (dummies included) read and written once.
std::size_t BytesOf(const Scene& scene) {
  return scene.triplets.size() * sizeof(Triplet) +
         2 * scene.particles.size() * sizeof(Particle);
}

// A schedule source: none (input order) or a scheduler at a width.
struct OrderSource {
  std::string name;
  const triplet_schedule::Variant* scheduler = nullptr;  // null: input
  bool simd = false;
};

// What a row computes once, on its first run.
struct Prepared {
  bool done = false;
  std::string error;
  Schedule schedule;
  std::size_t collided = 0;
  bool verified = false;
  double max_error = 0;
  checks::triplet_collide::Expected expected;  // the oracle's result
  // Warp schedules: the bank model's replays, 3 per chunk of 32, and the
  // floor no layout of the same sets beats.
  bool warp = false;
  std::uint64_t replays = 0;
  std::uint64_t ideal_replays = 0;
  std::uint64_t replays_floor = 0;
};

// The bank model's counts over a warp schedule's sets, as
// triplet_schedule_bench reports them.
void CountReplays(const Schedule& schedule, Prepared& prepared) {
  prepared.warp = true;
  std::size_t start = 0;
  for (const std::uint32_t size : schedule.set_sizes) {
    const std::span<const Triplet> set =
        std::span<const Triplet>(schedule.triplets).subspan(start, size);
    prepared.replays += triplet_schedule::SetReplays(set);
    prepared.replays_floor += triplet_schedule::SetReplaysFloor(set);
    prepared.ideal_replays +=
        3 * ((std::uint64_t{size} + triplet_schedule::kBanks - 1) /
             triplet_schedule::kBanks);
    start += size;
  }
}

void Prepare(const Variant& variant, const OrderSource& order,
             const Scene& scene, Prepared& prepared) {
  prepared.done = true;
  if (order.scheduler == nullptr) {
    prepared.schedule = InputOrder(scene.triplets);
  } else {
    const Consumes consumes = ConsumesOf(variant);
    const unsigned width =
        !order.simd ? 32u : (consumes.width != 0 ? consumes.width : 4u);
    order.scheduler->run(scene.triplets, scene.real, width, prepared.schedule);
    if (!order.simd) CountReplays(prepared.schedule, prepared);
  }
  prepared.expected = checks::triplet_collide::ExpectedOf(
      prepared.schedule.triplets, scene.weights, scene.shapes, scene.particles);
  const checks::triplet_collide::Expected& expected = prepared.expected;
  prepared.collided = expected.collided;
  std::vector<Particle> got = scene.particles;
  variant.run(prepared.schedule, scene.weights, scene.shapes, got);
  prepared.max_error =
      checks::triplet_collide::MaxError(got, expected.particles);
  const std::string difference = checks::triplet_collide::FirstDifference(
      prepared.schedule.triplets, scene.weights, scene.shapes, scene.particles,
      expected, got,
      checks::triplet_collide::ExactnessOf(variant, scene.triplets.size()));
  prepared.verified = difference.empty();
  if (!prepared.verified) {
    prepared.error = "result differs from the oracle: " + difference;
  }
}

#if ADJ_HAVE_CUDA
// The mean of kKernelPasses passes of a CUDA variant's kernel on the scene
// already on the device (DeviceCollider, CUDA events), whose result must
// equal the oracle's as the shipped variant's did.
double KernelSeconds(const Variant& variant, const Scene& scene,
                     const Prepared& prepared) {
  constexpr int kKernelPasses = 50;
  DeviceCollider collider(prepared.schedule, scene.weights, scene.shapes,
                          scene.particles);
  double seconds = 0;
  for (int pass = 0; pass < kKernelPasses; ++pass) {
    seconds += collider.TimePass(variant);
  }
  const std::string difference = checks::triplet_collide::FirstDifference(
      prepared.schedule.triplets, scene.weights, scene.shapes, scene.particles,
      prepared.expected, collider.Particles(),
      checks::triplet_collide::ExactnessOf(variant, scene.triplets.size()));
  if (!difference.empty()) {
    throw Error("the device-resident pass differs from the oracle: " +
                difference);
  }
  return seconds / kKernelPasses;
}
#endif

// `trusted`: the variant's run_trusted (no input check) on input checked
// once before timing, the kernel alone; otherwise run, as shipped.
void BenchPass(benchmark::State& state, const Variant& variant,
               const OrderSource& order, const Scene& scene, Prepared& prepared,
               bool trusted) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  std::vector<Particle> work = scene.particles;
  double kernel_us = 0;
  try {
    if (!prepared.done) Prepare(variant, order, scene, prepared);
    if (!prepared.error.empty()) {
      state.SkipWithError(prepared.error.c_str());
      return;
    }
    CollideFn* const run = trusted ? variant.run_trusted : variant.run;
    if (trusted) Check(prepared.schedule, scene.weights, scene.shapes, work);
    for (auto _ : state) {
      std::memcpy(work.data(), scene.particles.data(),
                  work.size() * sizeof(Particle));
      const auto start = std::chrono::steady_clock::now();
      run(prepared.schedule, scene.weights, scene.shapes, work);
      benchmark::DoNotOptimize(work.data());
      benchmark::ClobberMemory();
      state.SetIterationTime(std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - start)
                                 .count());
    }
#if ADJ_HAVE_CUDA
    if (variant.backend == Backend::kCuda) {
      kernel_us = 1e6 * KernelSeconds(variant, scene, prepared);
    }
#endif
  } catch (const std::exception& error) {
    // A CUDA error, exhausted shared memory or memory loses this row only.
    prepared.error = error.what();
    state.SkipWithError(error.what());
    return;
  }
  const auto triplets = static_cast<std::int64_t>(scene.triplets.size());
  state.SetItemsProcessed(state.iterations() * triplets);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(BytesOf(scene)));
  const Schedule& schedule = prepared.schedule;
  auto& c = state.counters;
  c["triplets"] = static_cast<double>(triplets);
  c["particles"] = static_cast<double>(scene.real);
  c["width"] = schedule.width;
  c["sets"] = static_cast<double>(schedule.set_sizes.size());
  c["padding"] = static_cast<double>(schedule.padding);
  c["collided"] = static_cast<double>(prepared.collided);
  c["verified"] = prepared.verified ? 1 : 0;
  if (!variant.untwinned.empty()) {  // its output depends on its threads
    c["max_error"] = prepared.max_error;
  }
  if (prepared.warp) {
    c["replays"] = static_cast<double>(prepared.replays);
    c["ideal_replays"] = static_cast<double>(prepared.ideal_replays);
    c["replays_floor"] = static_cast<double>(prepared.replays_floor);
  }
  if (variant.backend == Backend::kCuda) {
    // The kernel alone (CUDA events), without the copies and launch checks.
    c["kernel_us"] = kernel_us;
    bench::DescribeGpuRun(state);
    return;
  }
  bench::DescribeCpuRun(state, ThreadsOf(variant, scene.triplets.size()),
                        "cpu");
}

// The family's input check alone (triplet_collide::Check on the input
// order), what every variant's run spends before its kernel.
void BenchCheck(benchmark::State& state, const Scene& scene) {
  const Schedule schedule = InputOrder(scene.triplets);
  try {
    for (auto _ : state) {
      Check(schedule, scene.weights, scene.shapes, scene.particles);
      benchmark::ClobberMemory();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  const auto triplets = static_cast<std::int64_t>(scene.triplets.size());
  state.SetItemsProcessed(state.iterations() * triplets);
  state.counters["triplets"] = static_cast<double>(triplets);
  state.counters["particles"] = static_cast<double>(scene.real);
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(state, 1, "cpu, input check");
}

void AddScene(const std::string& name, const Mesh& mesh) {
  for (const bool permuted : {false, true}) {
    const Mesh ordered = permuted ? scenes::Shuffled(mesh, 1) : mesh;
    auto scene = std::make_unique<Scene>();
    scene->name = name + (permuted ? "-permuted" : "-natural");
    scene->triplets = scenes::VirtualParticles(ordered);
    scene->real = ordered.particles();
    scene->particles = ToParticles(ordered.positions);
    float extent = 0;
    for (Particle& p : scene->particles) {
      extent = std::max({extent, p[0], p[1]});
      if (p[1] < 0.5f * kSpacing) p[3] = 0;  // the pinned edge
    }
    const float l = extent;
    scene->shapes.spheres = {{{0.3f * l, 0.3f * l, 0.05f * l}, 0.2f * l},
                             {{0.7f * l, 0.35f * l, -0.05f * l}, 0.15f * l}};
    scene->shapes.capsules = {{{0.15f * l, 0.75f * l, 0},
                               {0.85f * l, 0.7f * l, 0.02f * l},
                               0.08f * l}};
    scene->weights = {kCentroidWeight};
    AppendDummies(scene->particles, scene->shapes);
    AllScenes().push_back(std::move(scene));
  }
}

void RegisterAll() {
  bench::DescribeTable("triplet_collide", "variants", Variants());
  for (const std::size_t side : kGridSides) {
    AddScene("grid" + std::to_string(side),
             scenes::ClothGrid(side, side, scenes::Diagonals::kUniform));
  }
  const bool full = bench::CurrentSweep().full;
  std::vector<OrderSource> simd_orders;
  for (const auto& scheduler : triplet_schedule::SimdSchedulers()) {
    simd_orders.push_back({std::string(scheduler.name), &scheduler, true});
  }
  std::vector<OrderSource> warp_orders;
  for (const auto& scheduler : triplet_schedule::WarpSchedulers()) {
    // An OpenMP scheduler's schedule is its serial twin's on every thread
    // count (triplet_schedule_test), so the kernels would run the same
    // order twice.
    if (scheduler.backend == Backend::kOpenMp) continue;
    warp_orders.push_back({std::string(scheduler.name), &scheduler, false});
  }
  const OrderSource input{"input", nullptr, false};

  for (const auto& scene_ptr : AllScenes()) {
    const Scene* scene = scene_ptr.get();
    const auto triplets = static_cast<std::int64_t>(scene->triplets.size());
    const auto moved = [scene](std::int64_t) { return BytesOf(*scene); };
    const auto items = [](std::int64_t t) { return t; };
    bench::RegisterMemcpyLimits("triplet_collide", scene->name, "triplets",
                                {triplets}, moved, items);
#if ADJ_HAVE_CUDA
    bench::RegisterDeviceCopyLimits("triplet_collide", scene->name, "triplets",
                                    {triplets}, moved, items,
                                    kCudaBlockThreads);
#endif
    benchmark::RegisterBenchmark(
        ("triplet_collide/check/" + scene->name + "/scheduler:input").c_str(),
        [scene](benchmark::State& state) { BenchCheck(state, *scene); })
        ->ArgName("triplets")
        ->Arg(triplets)
        ->UseRealTime();
    // The first order added per variant also gets a trusted:1 row.
    const auto add = [&](const Variant& variant, const OrderSource& order,
                         bool with_trusted = false) {
      for (const bool trusted : {false, true}) {
        if (trusted && (!with_trusted || variant.run_trusted == nullptr)) {
          break;
        }
        auto prepared = std::make_shared<Prepared>();
        auto* registered = benchmark::RegisterBenchmark(
            ("triplet_collide/" + std::string(variant.name) + "/" +
             scene->name + "/scheduler:" + order.name)
                .c_str(),
            [&variant, order, scene, prepared,
             trusted](benchmark::State& state) {
              BenchPass(state, variant, order, *scene, *prepared, trusted);
            });
        if (trusted) {
          registered->ArgNames({"triplets", "trusted"})->Args({triplets, 1});
        } else {
          registered->ArgName("triplets")->Arg(triplets);
        }
        registered->UseManualTime();
      }
    };
    for (const Variant& variant : Variants()) {
      switch (ConsumesOf(variant).order) {
        case triplet_collide::Order::kSimdBatches:
          for (const OrderSource& order : simd_orders) {
            add(variant, order, order.name == "nvcloth_simd");
          }
          break;
        case triplet_collide::Order::kWarpSets:
          for (const OrderSource& order : warp_orders) {
            add(variant, order, order.name == "nvcloth_warp");
          }
          break;
        case triplet_collide::Order::kAny:
          add(variant, input, true);
          // The baseline (the table's first row) on every schedule's order.
          if (&variant != &triplet_collide::Variants().front()) break;
          for (const OrderSource& order : simd_orders) {
            if (full || order.name == "nvcloth_simd") add(variant, order);
          }
          for (const OrderSource& order : warp_orders) {
            if (full || order.name == "nvcloth_warp") add(variant, order);
          }
          break;
      }
    }
  }
}

const bench::Registrar registrar(&RegisterAll, bench::kQuickSweepWithSpread);

}  // namespace
}  // namespace adj::triplet_collide

// sph/<variant>/<scene>/particles:<N>: one SPH step per iteration on the
// scene's fluid, carried from iteration to iteration (the fluid flows on
// while it is timed), one thread, beside sph/memcpy*/<scene>/particles:<N>,
// copies of the bytes a step moves at least (x, v, density and mass read,
// x, v and density written: 60 bytes a particle). Scenes (scenes/fluids.h,
// constants sph::WeaklyCompressible):
//   - glass: the chapter's fluid at rest in a glass, 8,000 particles (its
//     Table 6.3); the full sweep adds 64k, 512k and 1M;
//   - dam_break: a column twice as high as wide released in a box, 8,000
//     particles (full sweep: 64k and 1M).
// items_per_second is particle-neighbour interactions (pairs i != j within
// h whose forces a step summed) per second; counters: steps_per_second,
// interactions and candidates per particle, particles, h, dt. verified = 1:
// the variant's first step on the scene at 8,000 particles agreed with the
// double-precision oracle (checks::sph::FirstDifference, O(n^2)).
//
// sph/<variant>/<scene>_accuracy/particles:8000/steps:S: S steps of each
// variant and of `naive` (the three-pass reference, which the properties
// hold to the oracle step by step) from the same state; counters: the
// density error against the reference after the last step and its largest
// over the run (density_rms_percent, density_rms_max_percent,
// density_max_percent), position divergence (position_rms_h), kinetic
// energy and largest speed, and density_rms_percent_at_<step> every S / 20
// steps; blew_up_at_step is the step that threw sph::Error for a blown-up
// state (the run stops there; 0: it did not). Time is the variant's own
// steps.
//
// On a GPU the CUDA rows also run the glass at 1M and 10M particles. They
// take the state from host memory and give it back every step (time: the
// whole step, copies included; device_ms: the sort and kernels alone;
// bus_bytes_per_particle: what a step sends across the bus, x, v and mass
// up, the densities of t-1 too where the step reads them, x, v and
// density back), beside sph/memcpy_cuda_host/<scene>/particles:<N>, the
// bus's own round trip of 60 bytes a particle. sph/<row>_resident/<scene>/
// particles:<N> steps the same fluid kept on the device (sph::DeviceState,
// the row's kernels; time: device_ms alone, by CUDA events), beside
// sph/memcpy_cuda/<scene>/... (the device's own copy of 60 bytes a
// particle); verified = 1: one DeviceState step of the 8,000-particle
// scene agreed with the oracle.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algorithms/common/cuda.h"
#include "algorithms/sph/sph.h"
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/sph.h"
#include "scenes/fluids.h"

#if ADJ_HAVE_CUDA
#include "algorithms/sph/device_state.h"
#endif

namespace adj::sph {
namespace {

constexpr float kSpacing = 0.01f;
constexpr std::int64_t kChapterParticles = 8000;
constexpr std::size_t kBytesPerParticle = 60;

// The glass kept in cell order by its caller (ReorderByCell when built):
// every timed step is preceded by a reorder timed apart (reorder_ms), so
// that a row's cost with a reorder every kReorderEvery steps is its time
// plus reorder_ms / kReorderEvery however few steps it runs.
constexpr const char* kCellOrderedGlass = "glass_cell_ordered";
constexpr std::int64_t kReorderEvery = 100;

// The counters every verified step row records: per particle and step,
// the interactions and candidates, and the scene's h, dt and size.
void SetStepCounters(benchmark::State& state, const Params& params,
                     std::size_t particle_count, double per_step,
                     std::uint64_t interactions, std::uint64_t candidates) {
  const double particles = static_cast<double>(particle_count);
  state.counters["interactions_per_particle"] =
      static_cast<double>(interactions) / per_step / particles;
  state.counters["candidates_per_particle"] =
      static_cast<double>(candidates) / per_step / particles;
  state.counters["particles"] = particles;
  state.counters["h"] = params.h;
  state.counters["dt"] = params.dt;
  state.counters["verified"] = 1;
}

Fluid MakeFluid(const std::string& scene, std::int64_t n) {
  const auto particles = static_cast<std::size_t>(n);
  const bool glass = scene == "glass" || scene == kCellOrderedGlass;
  const scenes::FluidScene fluid =
      glass ? scenes::GlassAtRest(particles, kSpacing)
            : scenes::DamBreak(particles, kSpacing);
  Fluid made = LatticeFluid(fluid.positions, fluid.spacing, fluid.height,
                            ContainerOf(fluid.glass, fluid.lo, fluid.hi));
  if (scene == kCellOrderedGlass) ReorderByCell(made.state, made.params);
  return made;
}

// Scenes are built once per (scene, size) and shared by the rows.
const Fluid& CachedFluid(const std::string& scene, std::int64_t n) {
  static std::map<std::pair<std::string, std::int64_t>, Fluid> cache;
  auto it = cache.find({scene, n});
  if (it == cache.end())
    it = cache.emplace(std::pair{scene, n}, MakeFluid(scene, n)).first;
  return it->second;
}

// "" when the variant's first step on the 8,000-particle scene agrees with
// the oracle, else the difference; once per variant and scene.
const std::string& OracleVerdict(const Variant& variant,
                                 const std::string& scene) {
  static std::map<std::pair<std::string, std::string>, std::string> verdicts;
  const auto key = std::pair{std::string(variant.name), scene};
  auto it = verdicts.find(key);
  if (it != verdicts.end()) return it->second;
  const Fluid& fluid = CachedFluid(scene, kChapterParticles);
  State state = fluid.state;
  Workspace workspace;
  StepReport report;
  std::string verdict;
  try {
    variant.run(state, fluid.params, workspace, report);
    verdict = checks::sph::FirstDifference(
        fluid.state, fluid.params, checks::sph::DefinitionOf(variant), state);
  } catch (const std::exception& error) {
    verdict = error.what();
  }
  return verdicts.emplace(key, verdict).first->second;
}

// What a CUDA row's step sends across the bus a particle: x, v and mass to
// the device, and the densities of t-1 where the step reads them (the
// collapsed one's); x, v and density back.
std::size_t BusBytesPerParticle(const Variant& variant) {
  return variant.traits.update == Update::kCollapsed ? 60 : 56;
}

// False, the row skipped with the reason, where the variant cannot run here
// (a CUDA row without a usable device).
bool Runnable(benchmark::State& state, const Variant& variant) {
  const Availability availability = CanRun(variant);
  if (!availability.available) state.SkipWithError(availability.reason.c_str());
  return availability.available;
}

void RunSteps(benchmark::State& state, const Variant& variant,
              const std::string& scene) {
  if (!Runnable(state, variant)) return;
  const std::string& verdict = OracleVerdict(variant, scene);
  if (!verdict.empty()) {
    state.SkipWithError(("differs from the oracle: " + verdict).c_str());
    return;
  }
  const Fluid& fluid = CachedFluid(scene, state.range(0));
  State current = fluid.state;
  Workspace workspace;
  StepReport report;
  std::uint64_t interactions = 0;
  std::uint64_t candidates = 0;
  std::int64_t steps = 0;
  double device_seconds = 0;
  const bool reorder = scene == kCellOrderedGlass;
  double reorder_seconds = 0;
  for (auto _ : state) {
    try {
      if (reorder) {
        state.PauseTiming();
        const auto start = std::chrono::steady_clock::now();
        ReorderByCell(current, fluid.params,
                      variant.backend == Backend::kOpenMp);
        reorder_seconds += std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
        state.ResumeTiming();
      }
      variant.run(current, fluid.params, workspace, report);
    } catch (const std::exception& error) {
      state.SkipWithError(error.what());
      return;
    }
    interactions += report.interactions;
    candidates += report.candidates;
    device_seconds += report.device_seconds;
    ++steps;
  }
  const double per_step = static_cast<double>(steps);
  state.counters["steps_per_second"] =
      benchmark::Counter(per_step, benchmark::Counter::kIsRate);
  SetStepCounters(state, fluid.params, current.size(), per_step, interactions,
                  candidates);
  if (reorder) {
    state.counters["reorder_ms"] = 1e3 * reorder_seconds / per_step;
    state.counters["reorder_every"] = static_cast<double>(kReorderEvery);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(interactions));
  state.SetBytesProcessed(
      steps * static_cast<std::int64_t>(kBytesPerParticle * current.size()));
  if (variant.backend == Backend::kCuda) {
    state.counters["device_ms"] = 1e3 * device_seconds / per_step;
    state.counters["device_interactions_per_second"] =
        device_seconds > 0 ? static_cast<double>(interactions) / device_seconds
                           : 0;
    state.counters["bus_bytes_per_particle"] =
        static_cast<double>(BusBytesPerParticle(variant));
    bench::DescribeGpuRun(state,
                          "host memory in and out; device_ms: sort and "
                          "kernels alone");
    return;
  }
  bench::DescribeCpuRun(
      state, variant.backend == Backend::kOpenMp ? report.threads : 1, "cpu");
}

#if ADJ_HAVE_CUDA
// The fluid kept on the device, in each CUDA row's form.
struct ResidentForm {
  const Variant* row;
  DeviceState::Form form;
};
// Every CUDA row of the table, in the form its Traits give.
const std::vector<ResidentForm>& ResidentForms() {
  static const std::vector<ResidentForm> forms = [] {
    std::vector<ResidentForm> cuda_rows;
    for (const Variant& row : Variants()) {
      if (row.backend == Backend::kCuda) {
        cuda_rows.push_back({&row, DeviceState::FormOf(row)});
      }
    }
    return cuda_rows;
  }();
  return forms;
}

// "" when one DeviceState step of the 8,000-particle scene agrees with the
// oracle, else the difference; once per form and scene.
const std::string& ResidentVerdict(const ResidentForm& form,
                                   const std::string& scene) {
  static std::map<std::pair<std::string, std::string>, std::string> verdicts;
  const auto key = std::pair{std::string(form.row->name), scene};
  auto it = verdicts.find(key);
  if (it != verdicts.end()) return it->second;
  const Fluid& fluid = CachedFluid(scene, kChapterParticles);
  std::string verdict;
  try {
    DeviceState device(fluid.state, fluid.params, form.form);
    device.Step();
    State stepped;
    device.Download(stepped);
    verdict = checks::sph::FirstDifference(fluid.state, fluid.params,
                                           checks::sph::DefinitionOf(*form.row),
                                           stepped);
  } catch (const std::exception& error) {
    verdict = error.what();
  }
  return verdicts.emplace(key, verdict).first->second;
}

// Steps of the scene's fluid kept on the device, each timed by its own
// device_seconds (manual time): what a simulation that keeps its state on
// the GPU pays a step. The upload and one step (the buffers grown, a
// neighbour list's room found) go untimed before.
void RunResident(benchmark::State& state, const ResidentForm& form,
                 const std::string& scene) {
  if (!bench::GpuUsable(state)) return;
  const std::string& verdict = ResidentVerdict(form, scene);
  if (!verdict.empty()) {
    state.SkipWithError(("differs from the oracle: " + verdict).c_str());
    return;
  }
  const Fluid& fluid = CachedFluid(scene, state.range(0));
  std::uint64_t interactions = 0;
  std::uint64_t candidates = 0;
  std::int64_t steps = 0;
  double device_seconds = 0;
  try {
    DeviceState device(fluid.state, fluid.params, form.form);
    device.Step();
    for (auto _ : state) {
      const StepReport report = device.Step();
      state.SetIterationTime(report.device_seconds);
      interactions += report.interactions;
      candidates += report.candidates;
      device_seconds += report.device_seconds;
      ++steps;
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  const double per_step = static_cast<double>(std::max<std::int64_t>(steps, 1));
  SetStepCounters(state, fluid.params, fluid.state.size(), per_step,
                  interactions, candidates);
  state.counters["device_ms"] = 1e3 * device_seconds / per_step;
  state.counters["device_interactions_per_second"] =
      device_seconds > 0 ? static_cast<double>(interactions) / device_seconds
                         : 0;
  state.SetItemsProcessed(static_cast<std::int64_t>(interactions));
  state.SetBytesProcessed(steps * static_cast<std::int64_t>(
                                      kBytesPerParticle * fluid.state.size()));
  bench::DescribeGpuRun(state,
                        "device-resident state; time: sort and kernels alone");
}
#endif

// The reference run of a scene (naive's steps), its state after every
// `sample` steps; built once per scene and length.
const std::vector<State>& ReferenceRun(const std::string& scene, int steps,
                                       int sample) {
  static std::map<std::pair<std::string, int>, std::vector<State>> runs;
  auto it = runs.find({scene, steps});
  if (it != runs.end()) return it->second;
  const Fluid& fluid = CachedFluid(scene, kChapterParticles);
  const Variant& naive = *FindVariant(Variants(), "naive");
  std::vector<State> samples;
  State current = fluid.state;
  Workspace workspace;
  StepReport report;
  for (int s = 1; s <= steps; ++s) {
    naive.run(current, fluid.params, workspace, report);
    if (s % sample == 0) samples.push_back(current);
  }
  return runs.emplace(std::pair{scene, steps}, std::move(samples))
      .first->second;
}

void RunAccuracy(benchmark::State& state, const Variant& variant,
                 const std::string& scene) {
  if (!Runnable(state, variant)) return;
  const auto steps = static_cast<int>(state.range(1));
  const int sample = std::max(1, steps / 20);
  const Fluid& fluid = CachedFluid(scene, kChapterParticles);
  const std::vector<State>& reference = ReferenceRun(scene, steps, sample);
  checks::sph::Accuracy last;
  double worst_rms = 0;
  double worst_max = 0;
  std::vector<double> rms_at;
  int blew_up_at = 0;
  for (auto _ : state) {
    State current = fluid.state;
    Workspace workspace;
    StepReport report;
    double seconds = 0;
    rms_at.clear();
    worst_rms = worst_max = 0;
    blew_up_at = 0;
    int done = 0;
    for (int s = 1; s <= steps; ++s, ++done) {
      const auto start = std::chrono::steady_clock::now();
      try {
        variant.run(current, fluid.params, workspace, report);
      } catch (const Error&) {
        // A blown-up state is a result here (Algorithm 2's in-place step
        // is not stable where the others are): the run stops and says when.
        blew_up_at = s;
        break;
      }
      seconds += std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
      if (s % sample != 0) continue;
      last = checks::sph::Compare(current, reference[s / sample - 1],
                                  fluid.params);
      worst_rms = std::max(worst_rms, last.density_rms_percent);
      worst_max = std::max(worst_max, last.density_max_percent);
      rms_at.push_back(last.density_rms_percent);
    }
    state.SetIterationTime(seconds / std::max(done, 1));
  }
  state.counters["blew_up_at_step"] = blew_up_at;
  state.counters["density_rms_percent"] = last.density_rms_percent;
  state.counters["density_rms_max_percent"] = worst_rms;
  state.counters["density_max_percent"] = worst_max;
  state.counters["position_rms_h"] = last.position_rms_h;
  state.counters["kinetic_energy"] = last.kinetic_energy;
  state.counters["max_speed"] = last.max_speed;
  for (std::size_t k = 0; k < rms_at.size(); ++k) {
    char name[48];
    std::snprintf(name, sizeof name, "density_rms_percent_at_%05zu",
                  (k + 1) * static_cast<std::size_t>(sample));
    state.counters[name] = rms_at[k];
  }
  state.counters["particles"] = static_cast<double>(fluid.state.size());
  state.counters["steps"] = steps;
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(state, 1, "cpu");
}

void RegisterAll() {
  bench::DescribeTable("sph", "variants", Variants());
  // The chapter's Table 6.3, frames per second relative to naive (19 fps):
  // neighbour 26, collapse 30, GCB hash 36, homogeneous 37.
  bench::DescribeGoal("sph", "published_ratio_neighbor", 26.0 / 19);
  bench::DescribeGoal("sph", "published_ratio_collapse", 30.0 / 19);
  bench::DescribeGoal("sph", "published_ratio_gcb_hash", 36.0 / 19);
  bench::DescribeGoal("sph", "published_ratio_homogeneous", 37.0 / 19);
  // The goals: our best single-thread variant at least 4x naive
  // with a density RMS error under 0.5 % over 1000 steps.
  bench::DescribeGoal("sph", "best_ratio_to_naive", 4);
  bench::DescribeGoal("sph", "density_rms_percent", 0.5);
  bench::DescribeGoal("sph", "interactions_per_second_1m_2_threads", 2e8);
  bench::DescribeGoal("sph", "cuda_interactions_per_second_10m", 5e9);
  const bool full = bench::CurrentSweep().full;
  const std::vector<std::pair<std::string, std::vector<std::int64_t>>> scenes =
      {
          {"glass",
           full ? std::vector<std::int64_t>{8000, 65536, 524288, 1000000}
                : std::vector<std::int64_t>{8000}},
          {"dam_break", full ? std::vector<std::int64_t>{8000, 65536, 1000000}
                             : std::vector<std::int64_t>{8000}},
      };
  for (const auto& entry : scenes) {
    // A named copy: clang 14 cannot capture a structured binding.
    const std::string scene = entry.first;
    const std::vector<std::int64_t>& sizes = entry.second;
    const auto bytes_of = [](std::int64_t n) {
      return static_cast<std::size_t>(n) * kBytesPerParticle;
    };
    // memcpy_cuda_host beside the CUDA rows, which are timed host to host.
    bench::RegisterMemcpyLimits("sph", scene, "particles", sizes, bytes_of,
                                nullptr, bench::HostRoundTrip::kRegister);
    // The GPU rows also run the glass at 1M and 10M particles (the GPU
    // goal: 5e9 interactions per second at 10M), with their limits where
    // a GPU is here to run them.
    std::vector<std::int64_t> gpu_sizes = sizes;
    std::vector<std::int64_t> gpu_only_sizes;
    if (scene == "glass") {
      for (const std::int64_t big : {1000000, 10000000}) {
        if (std::find(gpu_sizes.begin(), gpu_sizes.end(), big) ==
            gpu_sizes.end()) {
          gpu_sizes.push_back(big);
          gpu_only_sizes.push_back(big);
        }
      }
    }
    if (!gpu_only_sizes.empty() && cuda::Available().available) {
      bench::RegisterMemcpyLimits("sph", scene, "particles", gpu_only_sizes,
                                  bytes_of, nullptr,
                                  bench::HostRoundTrip::kRegister);
    }
#if ADJ_HAVE_CUDA
    bench::RegisterDeviceCopyLimits("sph", scene, "particles", gpu_sizes,
                                    bytes_of);
    for (const ResidentForm& form : ResidentForms()) {
      for (const std::int64_t n : gpu_sizes) {
        benchmark::RegisterBenchmark(
            ("sph/" + std::string(form.row->name) + "_resident/" + scene)
                .c_str(),
            [&form, scene](benchmark::State& state) {
              RunResident(state, form, scene);
            })
            ->ArgName("particles")
            ->Arg(n)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
#endif
    for (const Variant& variant : Variants()) {
      for (const std::int64_t n :
           variant.backend == Backend::kCuda ? gpu_sizes : sizes) {
        benchmark::RegisterBenchmark(
            ("sph/" + std::string(variant.name) + "/" + scene).c_str(),
            [&variant, scene](benchmark::State& state) {
              RunSteps(state, variant, scene);
            })
            ->ArgName("particles")
            ->Arg(n)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  // The glass in cell order for the sorted variants that step it fastest,
  // beside their glass rows (docs/sph.md: the 1M goal).
  {
    const std::vector<std::int64_t> sizes =
        full ? std::vector<std::int64_t>{8000, 1000000}
             : std::vector<std::int64_t>{8000};
    bench::RegisterMemcpyLimits(
        "sph", kCellOrderedGlass, "particles", sizes,
        [](std::int64_t n) {
          return static_cast<std::size_t>(n) * kBytesPerParticle;
        },
        nullptr, bench::HostRoundTrip::kNone);
    for (const Variant& variant : Variants()) {
      if (variant.name != "sorted_pairs_simd" &&
          variant.name != "sorted_pairs_simd_openmp") {
        continue;
      }
      for (const std::int64_t n : sizes) {
        benchmark::RegisterBenchmark(
            ("sph/" + std::string(variant.name) + "/" + kCellOrderedGlass)
                .c_str(),
            [&variant](benchmark::State& state) {
              RunSteps(state, variant, kCellOrderedGlass);
            })
            ->ArgName("particles")
            ->Arg(n)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  const int steps = full ? 1000 : 200;
  for (const std::string scene : {"glass", "dam_break"}) {
    bench::RegisterMemcpyLimits(
        "sph", scene + "_accuracy", "particles", {kChapterParticles},
        [](std::int64_t n) {
          return static_cast<std::size_t>(n) * kBytesPerParticle;
        },
        nullptr, bench::HostRoundTrip::kNone);
    for (const Variant& variant : Variants()) {
      benchmark::RegisterBenchmark(
          ("sph/" + std::string(variant.name) + "/" + scene + "_accuracy")
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            RunAccuracy(state, variant, scene);
          })
          ->ArgNames({"particles", "steps"})
          ->Args({kChapterParticles, steps})
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::sph

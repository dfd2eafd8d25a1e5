// hash_grid/<variant>/<scene>/n:<N>: fixed-radius neighbour lists, beside
// hash_grid/memcpy*/<scene>/n:<N>, copies moving the bytes a build must move at
// least (the positions in, a full list's offsets and indices out). Scenes:
//   - muller_balls: Ten Minute Physics 11's initial lattice, 24^3 = 13,824
//     balls of radius 0.025 at lattice spacing 0.075, hashed as the demo
//     does: spacing 2r, table 2N, radius 2r (no pair on the initial lattice:
//     the row measures the 27 bucket visits per ball);
//   - muller_cloth: Ten Minute Physics 15's cloth, 30 x 200 particles at
//     spacing 0.01, hashed as the demo does: spacing 0.01, table 5N, radius
//     maxTravelDist = 0.02 (125 buckets per query);
//   - cloth_fold: the same cloth folded into 4 layers 0.01 (the thickness)
//     apart, hashed the same way: self-collision's hard case, particles of
//     the layers above and below in every window. 30k x 200k particles: k =
//     1 (6,000) in the quick sweep, k = 1, 2, 4, 8, 16, 26 (up to 4.06M) in
//     the full one;
//   - uniform: uniform clouds with ~30 neighbours per particle (radius 1,
//     spacing = radius, table 2N), N = 16k, 128k, 1M (the quick sweep), 1k
//     to 4M by powers of two (the full sweep); uniform_nb8 and
//     uniform_nb100: the same at ~8 and ~100 neighbours, N = 128k (quick),
//     16k, 128k, 1M (full);
//   - compactnsearch_sphere: CompactNSearch's demo scene at 60 points across
//     (107,392 points, radius two lattice spacings, ~28 neighbours), in
//     shuffled order; spacing = radius, table 2N;
//   - cgal-points-<name> and cgal-<name>: CGAL's point sets (points_3) and
//     the vertices of its meshes, when `make data` fetched them (the quick
//     sweep takes points_3/building and meshes/bunny00, the full sweep
//     every file of >= 1,000 points), at the radius where the median
//     particle has 30 neighbours (scenes::RadiusForNeighbors); spacing =
//     radius, table 2N.
// Each row times the variant as shipped, its input check (hash_grid::Check)
// included; .../n:<N>/trusted:1 times its kernel alone (run_trusted on
// input checked before timing), and for a peer with a separate index (a
// k-d tree) .../n:<N>/query:1 its queries alone on the index built before
// timing, on every scene in the full sweep and on the uniform scene in the
// quick one; hash_grid/check/<scene>/n:<N> times the
// check alone on every scene.
// Each variant is checked once per scene before timing by
// checks::hash_grid: against the brute-force oracle's rows, every row up to
// 20k particles, 64 rows spread over the ids above (verified = 1 either
// way). items_per_second is particles per
// second; counters: pairs (distinct unordered pairs found), candidates (per
// particle), duplicates (Müller's repeated entries) and duplicate_fraction
// (duplicates / distinct entries), neighbors_per_particle, entries,
// table_size, radius, threads; on CUDA rows device_ms and
// device_entries_per_second, the mean of 10 searches on the positions
// already on the device, by CUDA events (DeviceSearcher), checked against
// the oracle too.
//
// hash_grid/muller/<scene>/table_factor:F/radius_cells:R: Müller's
// duplicates against his table size (F x N buckets, F = 1, 2, 5, 10, 20)
// and query radius (R x spacing, R = 1, 2, 3; spacing 0.01) on
// muller_cloth, cloth_fold (k = 1) and random_cube (6,000 uniform points in
// a cube of side 0.15: his cloth hash at random positions, as
// Müller's own JavaScript demo runs, docs/hash_grid.md). Checked
// before timing: the rows against the oracle, and each pair's repeats
// against the multiplicity of its bucket in the window (computed
// independently; duplicates_verified = 1), except at radius_cells:3 in the
// quick sweep (0: seconds per row).
//
// The quick sweep (default) runs each row for at least 0.1 s, as
// run_benchmarks.py's quick sweep does, and measures the copies beside the
// uniform scene only (a bare run takes about a minute and a half); the full
// sweep (--adj_sweep=full) honours --benchmark_min_time and measures the
// copies beside every scene.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "algorithms/common/cuda.h"
#include "algorithms/hash_grid/hash_grid.h"
#if ADJ_HAVE_CUDA
#include "algorithms/hash_grid/device_searcher.h"
#endif
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/hash_grid.h"
#include "scenes/clouds.h"
#include "scenes/mesh_io.h"
#include "scenes/registry.h"

namespace adj::hash_grid {
namespace {

constexpr std::size_t kOracleMaxParticles = 20000;
constexpr std::size_t kSampledRows = 64;
constexpr double kUniformNeighbors = 30;
constexpr std::size_t kRealNeighbors = 30;
constexpr std::size_t kMinRealPoints = 1000;
constexpr std::size_t kFoldLayers = 4;
// The quick sweep's real data: the largest scan and the bunny.
constexpr const char* kQuickPointSets[] = {"building"};
constexpr const char* kQuickMeshes[] = {"bunny00"};
constexpr std::int64_t kTableFactors[] = {1, 2, 5, 10, 20};
constexpr std::int64_t kRadiusCells[] = {1, 2, 3};
// The quick sweep's minimum time per row (run_benchmarks.py's quick
// setting), so that a bare run of the binary stays near a minute and a
// half; the full sweep takes --benchmark_min_time.
constexpr double kQuickMinTime = 0.1;
// The quick sweep measures the copies beside this scene only (the time
// figure's; the search runs far below copy speed, and 30 copy rows would
// be a third of the sweep); the full sweep beside every scene.
constexpr const char* kQuickLimitScene = "uniform";
// The quick sweep checks Müller's duplicates against the reference up to
// this radius (in cells); beyond, the reference takes seconds per row.
constexpr std::int64_t kQuickRepeatsMaxCells = 2;

struct Scene {
  std::string name;
  Points points;
  Params params;
  // The full list's entries (for the memcpy rows' bytes), from cell_sorted:
  // a size, not a verification.
  std::size_t FullEntries() {
    std::call_once(entries_once, [this] {
      Neighbors out;
      FindVariant(Variants(), "cell_sorted")->run(points, params, out);
      full_entries = out.csr.entries();
    });
    return full_entries;
  }
  // The oracle's rows, computed by the first row that runs: every row up to
  // kOracleMaxParticles, kSampledRows spread over the ids above.
  const checks::hash_grid::Expected& Oracle() {
    std::call_once(oracle_once, [this] {
      oracle = checks::hash_grid::ExpectedOnRows(
          points, params.max_dist,
          points.size() <= kOracleMaxParticles ? points.size() : kSampledRows);
    });
    return oracle;
  }

 private:
  std::once_flag entries_once;
  std::size_t full_entries = 0;
  std::once_flag oracle_once;
  checks::hash_grid::Expected oracle;
};

std::vector<std::unique_ptr<Scene>>& AllScenes() {
  static std::vector<std::unique_ptr<Scene>> scenes;
  return scenes;
}

// The duplicate rows' scenes: one per (scene, radius_cells), registered
// apart from the timing sweep.
std::vector<std::unique_ptr<Scene>>& DuplicateScenes() {
  static std::vector<std::unique_ptr<Scene>> scenes;
  return scenes;
}

std::size_t BytesOf(Scene& scene) {
  const std::size_t n = scene.points.size();
  return 3 * n * sizeof(float) + (n + 1) * sizeof(std::uint32_t) +
         scene.FullEntries() * sizeof(std::uint32_t);
}

#if ADJ_HAVE_CUDA
// The mean of kDevicePasses searches on the positions already on the device
// (DeviceSearcher, CUDA events), whose lists must agree with the oracle as
// the shipped variant's did.
double DeviceSeconds(Scene& scene, const Params& params, bool check_repeats) {
  constexpr int kDevicePasses = 10;
  DeviceSearcher searcher(scene.points, params);
  double seconds = 0;
  for (int pass = 0; pass < kDevicePasses; ++pass) {
    seconds += searcher.TimeLists();
  }
  const std::string difference = checks::hash_grid::FirstDifference(
      scene.points, params, scene.Oracle(), searcher.Lists(), check_repeats);
  if (!difference.empty()) {
    throw Error("the device-resident lists differ from the oracle: " +
                difference);
  }
  return seconds / kDevicePasses;
}
#endif

// What a row times: the variant as shipped (run), its kernel on input
// checked before timing (run_trusted), or a peer's queries alone on its
// index built before timing (Traits::build_index).
enum class Timed { kShipped, kKernel, kQuery };

// Times `variant` on `scene` with `params` (the scene's, or another table
// size), after checking its output once; sets the rates and counters.
// False when the row was skipped.
bool Measure(benchmark::State& state, const Variant& variant, Scene& scene,
             const Params& params, bool check_repeats,
             Timed timed = Timed::kShipped) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return false;
  }
  Neighbors out;
  double device_seconds = 0;  // per search, CUDA rows only
  try {
    std::unique_ptr<PeerIndex> index;
    if (timed != Timed::kShipped) Check(scene.points, params, /*hashed=*/true);
    if (timed == Timed::kQuery) {
      index = variant.traits.build_index(scene.points, params);
    }
    const auto run = [&] {
      if (timed == Timed::kShipped) {
        variant.run(scene.points, params, out);
      } else if (timed == Timed::kKernel) {
        variant.run_trusted(scene.points, params, out);
      } else {
        index->QueryAll(out);
      }
    };
    run();
    const std::string difference = checks::hash_grid::FirstDifference(
        scene.points, params, scene.Oracle(), out, check_repeats);
    if (!difference.empty()) {
      state.SkipWithError(
          ("output differs from the oracle: " + difference).c_str());
      return false;
    }
    for (auto _ : state) {
      run();
      benchmark::DoNotOptimize(out.csr.indices.data());
      benchmark::ClobberMemory();
    }
#if ADJ_HAVE_CUDA
    if (variant.backend == Backend::kCuda) {
      device_seconds = DeviceSeconds(scene, params, check_repeats);
    }
#endif
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return false;
  }
  const checks::hash_grid::Statistics stats =
      checks::hash_grid::StatisticsOf(out);
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(scene.points.size()));
  state.counters["pairs"] = static_cast<double>(stats.pairs);
  state.counters["entries"] = static_cast<double>(stats.entries);
  state.counters["candidates"] = stats.candidates_per_particle;
  state.counters["duplicates"] = static_cast<double>(stats.duplicates);
  state.counters["duplicate_fraction"] =
      stats.distinct == 0 ? 0
                          : static_cast<double>(stats.duplicates) /
                                static_cast<double>(stats.distinct);
  state.counters["neighbors_per_particle"] = stats.neighbors_per_particle;
  state.counters["table_size"] = params.table_size;
  state.counters["radius"] = params.max_dist;
  state.counters["verified"] = 1;
  if (variant.backend == Backend::kCuda) {
    // The GPU's own rate, without the copies between host and device.
    state.counters["device_ms"] = 1e3 * device_seconds;
    state.counters["device_entries_per_second"] =
        device_seconds > 0
            ? static_cast<double>(out.csr.entries()) / device_seconds
            : 0;
    bench::DescribeGpuRun(state, std::string(ListKindName(out.list)) +
                                     " list, host memory in and out");
    return true;
  }
  bench::DescribeCpuRun(
      state, out.threads,
      std::string("cpu, ") + std::string(ListKindName(out.list)) + " list");
  return true;
}

void BenchVariant(benchmark::State& state, const Variant& variant, Scene& scene,
                  Timed timed) {
  if (Measure(state, variant, scene, scene.params, false, timed)) {
    state.SetBytesProcessed(state.iterations() *
                            static_cast<std::int64_t>(BytesOf(scene)));
  }
}

// The family's input check alone (hash_grid::Check: one pass over the
// coordinates), what every variant's run spends before its kernel.
void BenchCheck(benchmark::State& state, Scene& scene) {
  try {
    for (auto _ : state) {
      Check(scene.points, scene.params, /*hashed=*/true);
      benchmark::ClobberMemory();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(scene.points.size()));
  state.SetBytesProcessed(
      state.iterations() *
      static_cast<std::int64_t>(3 * sizeof(float) * scene.points.size()));
  state.counters["radius"] = scene.params.max_dist;
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(state, 1, "cpu, input check");
}

std::unique_ptr<Scene> MakeScene(std::string name, Points points, float spacing,
                                 float max_dist, std::uint32_t table_factor) {
  auto scene = std::make_unique<Scene>();
  scene->name = std::move(name);
  scene->params = {spacing, max_dist,
                   static_cast<std::uint32_t>(table_factor * points.size())};
  scene->points = std::move(points);
  return scene;
}

void AddScene(std::string name, Points points, float spacing, float max_dist,
              std::uint32_t table_factor = 2) {
  AllScenes().push_back(MakeScene(std::move(name), std::move(points), spacing,
                                  max_dist, table_factor));
}

void Tune(benchmark::internal::Benchmark* registered) {
  registered->UseRealTime();
  if (!bench::CurrentSweep().full) registered->MinTime(kQuickMinTime);
}

std::vector<std::int64_t> UniformSizes() {
  const bench::Sweep& sweep = bench::CurrentSweep();
  if (sweep.full) return bench::PowersOfTwo(10, 22);
  std::vector<std::int64_t> sizes;
  const int max_log2 = sweep.max_log2 >= 0 ? sweep.max_log2 : 20;
  for (const int log2 : {14, 17, 20}) {
    if (log2 <= max_log2) sizes.push_back(std::int64_t{1} << log2);
  }
  return sizes;
}

// The other densities: fewer sizes (the density, not N, is the variable).
std::vector<std::int64_t> DensitySizes() {
  const bench::Sweep& sweep = bench::CurrentSweep();
  const int max_log2 = sweep.max_log2 >= 0 ? sweep.max_log2 : 20;
  std::vector<std::int64_t> sizes;
  for (const int log2 : {14, 17, 20}) {
    if ((sweep.full || log2 == 17) && log2 <= max_log2) {
      sizes.push_back(std::int64_t{1} << log2);
    }
  }
  return sizes;
}

// Cloth scales k (30k x 200k particles), bounded by --adj_max_log2.
std::vector<std::size_t> ClothScales() {
  const bench::Sweep& sweep = bench::CurrentSweep();
  const std::size_t max_particles =
      sweep.max_log2 >= 0 ? std::size_t{1} << sweep.max_log2 : ~std::size_t{0};
  std::vector<std::size_t> scales;
  for (const std::size_t k : {1, 2, 4, 8, 16, 26}) {
    if ((sweep.full || k == 1) && (k == 1 || 6000 * k * k <= max_particles)) {
      scales.push_back(k);
    }
  }
  return scales;
}

void AddUniform(const std::string& name, std::size_t n, double neighbors) {
  const float radius = 1.0f;
  AddScene(name,
           scenes::UniformCloud(n, scenes::UniformSideFor(n, radius, neighbors),
                                static_cast<std::uint64_t>(n)),
           radius, radius);
}

// A real point set or mesh's vertices, when it loads, is large enough and
// its radius passes Check (a benchmark only measures: `adjacent
// verify --radius` says what is wrong with the others).
void AddRealCloud(const std::string& name, const std::filesystem::path& path) {
  try {
    Points points = scenes::LoadPoints(path);
    if (points.size() < kMinRealPoints) return;
    const float radius = scenes::RadiusForNeighbors(points, kRealNeighbors);
    auto scene = MakeScene(name, std::move(points), radius, radius, 2);
    Check(scene->points, scene->params, true);
    AllScenes().push_back(std::move(scene));
  } catch (const std::exception&) {
  }
}

bool Listed(const std::string& stem, std::span<const char* const> names) {
  return std::find(names.begin(), names.end(), stem) != names.end();
}

void AddRealData() {
  const bool full = bench::CurrentSweep().full;
  std::set<std::string> seen;
  for (const auto& path : scenes::RealPointFiles()) {
    const std::string stem = path.stem().string();
    if (!seen.insert(stem).second) continue;  // kitten.off, kitten.xyz
    if (full || Listed(stem, kQuickPointSets)) {
      AddRealCloud("cgal-points-" + stem, path);
    }
  }
  for (const auto& path : scenes::RealMeshFiles()) {
    const std::string stem = path.stem().string();
    if (full || Listed(stem, kQuickMeshes)) AddRealCloud("cgal-" + stem, path);
  }
}

void BenchDuplicates(benchmark::State& state, const Variant& muller,
                     Scene& scene) {
  Params params = scene.params;
  params.table_size = static_cast<std::uint32_t>(state.range(0)) *
                      static_cast<std::uint32_t>(scene.points.size());
  const bool check_repeats =
      bench::CurrentSweep().full || state.range(1) <= kQuickRepeatsMaxCells;
  if (Measure(state, muller, scene, params, check_repeats)) {
    state.counters["duplicates_verified"] = check_repeats ? 1 : 0;
  }
}

void RegisterDuplicateRows() {
  const Variant* muller = FindVariant(Variants(), "muller");
  if (muller == nullptr) return;
  const double spacing = scenes::kMullerClothParticleSpacing;
  const std::size_t n = scenes::kMullerClothX * scenes::kMullerClothY;
  const auto clouds = {
      std::make_pair("muller_cloth", scenes::MullerClothDemo()),
      std::make_pair(
          "cloth_fold",
          scenes::FoldedCloth(scenes::kMullerClothX, scenes::kMullerClothY,
                              spacing, kFoldLayers, spacing)),
      std::make_pair("random_cube", scenes::UniformCloud(n, 0.15f, 15))};
  for (const auto& [name, points] : clouds) {
    for (const std::int64_t cells : kRadiusCells) {
      DuplicateScenes().push_back(MakeScene(
          name, points, scenes::kMullerClothSpacing,
          static_cast<float>(static_cast<double>(cells) * spacing), 1));
      Scene* scene = DuplicateScenes().back().get();
      auto* registered = benchmark::RegisterBenchmark(
          ("hash_grid/muller/" + scene->name).c_str(),
          [muller, scene](benchmark::State& state) {
            BenchDuplicates(state, *muller, *scene);
          });
      registered->ArgNames({"table_factor", "radius_cells"});
      Tune(registered);
      for (const std::int64_t factor : kTableFactors) {
        registered->Args({factor, cells});
      }
    }
  }
}

void RegisterAll() {
  bench::DescribeTable("hash_grid", "variants", Variants());
  const float ball_contact = 2 * scenes::kMullerBallRadius;
  AddScene("muller_balls", scenes::MullerBallsDemo(), ball_contact,
           ball_contact);
  AddScene("muller_cloth", scenes::MullerClothDemo(),
           scenes::kMullerClothSpacing, scenes::kMullerClothRadius,
           scenes::kMullerClothTableFactor);
  for (const std::size_t k : ClothScales()) {
    const double spacing = scenes::kMullerClothParticleSpacing;
    AddScene("cloth_fold",
             scenes::FoldedCloth(k * scenes::kMullerClothX,
                                 k * scenes::kMullerClothY, spacing,
                                 kFoldLayers, spacing),
             scenes::kMullerClothSpacing, scenes::kMullerClothRadius,
             scenes::kMullerClothTableFactor);
  }
  for (const std::int64_t size : UniformSizes()) {
    AddUniform("uniform", static_cast<std::size_t>(size), kUniformNeighbors);
  }
  for (const std::int64_t size : DensitySizes()) {
    AddUniform("uniform_nb8", static_cast<std::size_t>(size), 8);
    AddUniform("uniform_nb100", static_cast<std::size_t>(size), 100);
  }
  constexpr std::size_t kSphereAcross = 60;
  const float sphere_radius = scenes::CompactNSearchRadius(kSphereAcross);
  AddScene("compactnsearch_sphere",
           scenes::CompactNSearchSphere(kSphereAcross, 1), sphere_radius,
           sphere_radius);
  AddRealData();

  for (const auto& scene_ptr : AllScenes()) {
    Scene* scene = scene_ptr.get();
    const auto n = static_cast<std::int64_t>(scene->points.size());
    if (bench::CurrentSweep().full || scene->name == kQuickLimitScene) {
      bench::RegisterMemcpyLimits(
          "hash_grid", scene->name, "n", {n},
          [scene](std::int64_t) { return BytesOf(*scene); },
          [](std::int64_t particles) { return particles; });
    }
    auto* check = benchmark::RegisterBenchmark(
        ("hash_grid/check/" + scene->name).c_str(),
        [scene](benchmark::State& state) { BenchCheck(state, *scene); });
    check->ArgName("n")->Arg(n);
    Tune(check);
    const bool time_kernels =
        bench::CurrentSweep().full || scene->name == kQuickLimitScene;
    for (const Variant& variant : Variants()) {
      auto* registered = benchmark::RegisterBenchmark(
          ("hash_grid/" + std::string(variant.name) + "/" + scene->name)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene, Timed::kShipped);
          });
      registered->ArgName("n")->Arg(n);
      Tune(registered);
      if (!time_kernels || variant.run_trusted == nullptr) continue;
      auto* kernel = benchmark::RegisterBenchmark(
          ("hash_grid/" + std::string(variant.name) + "/" + scene->name)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene, Timed::kKernel);
          });
      kernel->ArgNames({"n", "trusted"})->Args({n, 1});
      Tune(kernel);
      if (variant.traits.build_index == nullptr) continue;
      auto* query = benchmark::RegisterBenchmark(
          ("hash_grid/" + std::string(variant.name) + "/" + scene->name)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene, Timed::kQuery);
          });
      query->ArgNames({"n", "query"})->Args({n, 1});
      Tune(query);
    }
  }
  RegisterDuplicateRows();
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::hash_grid

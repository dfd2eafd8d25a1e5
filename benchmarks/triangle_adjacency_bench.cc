// triangle_adjacency/<variant>/<scene>/triangles:<T>: particle -> triangles
// builds, beside triangle_adjacency/memcpy*/<scene>/triangles:<T>, copies of
// the bytes a build must move at least (the triangles in, the offsets and
// indices out). Scenes: cloth grids of 64^2 .. 1024^2 quads in generator
// order ("grid") and shuffled ("grid_shuffled"); CGAL's meshes when `make
// data` fetched them ("cgal-<name>"; the quick sweep takes a named few, the
// full sweep every one), and the largest of them subdivided past 1M
// triangles ("cgal-<name>-subdivided").
// items_per_second is triangles per second, for the copies too (the
// triangles a build would handle at copy speed).
// triangle_adjacency/check/<scene>/triangles:<T> times the family's input
// check as a pass of its own (the variants test inside their count pass).
// With a GPU, triangle_adjacency/cuda/<scene>/triangles:<T>/device:1 times
// the kernels alone on triangles already on the device, by CUDA events
// (DeviceBuilder), beside triangle_adjacency/memcpy_cuda/<scene>/... (the
// same bytes copied on the device).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#if ADJ_HAVE_CUDA
#include "algorithms/triangle_adjacency/device_builder.h"
#endif
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/triangle_adjacency.h"
#include "scenes/mesh_io.h"
#include "scenes/meshes.h"
#include "scenes/registry.h"

namespace adj::triangle_adjacency {
namespace {

constexpr int kMinSideLog2 = 6;   // 64 x 64 quads
constexpr int kMaxSideLog2 = 10;  // 1024 x 1024 quads, 2M triangles
constexpr std::size_t kSubdividedTriangles = std::size_t{1} << 20;
// The quick sweep's real meshes: the well-known ones, small to largest.
constexpr const char* kQuickMeshes[] = {
    "elephant",  "camel",   "ChineseDragon-10kv",
    "armadillo", "bunny00", "refined_elephant"};
// Subdivided past 1M triangles (in the quick sweep too: the goal is stated
// at >= 1M triangles).
constexpr const char* kSubdividedMeshes[] = {"bunny00", "armadillo"};

// Where the timed input sits relative to the output. A build reads
// triangle t at 12 t bytes and, on a mesh stored with locality, writes its
// row entries near 12 t bytes of the indices: when both arrays start at the
// same offset within a 4 KiB page (what two fresh large allocations get from
// glibc's mmap), each load waits on a store it only seems to depend on (4K
// aliasing; docs/triangle_adjacency.md#decisions-and-dead-ends has the
// kept numbers). Every row puts its input this many bytes past the
// output's page offset, so that timings do not depend on the allocator's
// history; the `_page_aliased` scene shows the other case.
constexpr std::size_t kPageGap = 2048;
constexpr std::size_t kPage = 4096;

struct Scene {
  std::string name;
  Mesh mesh;
  std::size_t page_gap = kPageGap;
  // The oracle's rows, to verify each variant once; computed by the first
  // row that runs (not at registration, so a filtered run skips it).
  const Csr& Ascending() {
    std::call_once(oracle_once, [this] {
      ascending = checks::triangle_adjacency::ExpectedOf(mesh.triangles,
                                                         mesh.particles());
    });
    return ascending;
  }

 private:
  std::once_flag oracle_once;
  Csr ascending;
};

std::vector<std::unique_ptr<Scene>>& AllScenes() {
  static std::vector<std::unique_ptr<Scene>> scenes;
  return scenes;
}

std::size_t BytesOf(const Scene& scene) {
  const std::size_t triangles = scene.mesh.triangles.size();
  return triangles * sizeof(Triangle) +                          // read
         (scene.mesh.particles() + 1) * sizeof(std::uint32_t) +  // offsets
         3 * triangles * sizeof(std::uint32_t);                  // indices
}

// "" when `got` agrees with the oracle, else why it does not.
std::string Disagreement(Scene& scene, const Adjacency& got) {
  return checks::triangle_adjacency::FirstDifference(
      scene.Ascending(), scene.mesh.triangles.size(), got);
}

// A copy of `triangles` in `buffer`, starting `gap` bytes (mod 4 KiB) past
// `output`. Both are 4-byte aligned and a triangle is 12 bytes, so every
// multiple of 4 is reachable within the first 1024 triangles of the buffer.
std::span<const Triangle> PlacedAfter(const void* output, std::size_t gap,
                                      std::span<const Triangle> triangles,
                                      std::vector<Triangle>& buffer) {
  constexpr std::size_t kSlack = kPage / 4;
  buffer.resize(triangles.size() + kSlack);
  const auto address = [](const void* p) {
    return reinterpret_cast<std::uintptr_t>(p);
  };
  std::size_t start = 0;
  while (start < kSlack &&
         (address(buffer.data() + start) - address(output)) % kPage != gap) {
    ++start;
  }
  if (start == kSlack) start = 0;  // an odd allocator: any place will do
  std::copy(triangles.begin(), triangles.end(), buffer.begin() + start);
  return {buffer.data() + start, triangles.size()};
}

// Rates and the mesh's counters for a row whose last build gave `out`.
void SetCounters(benchmark::State& state, const Scene& scene,
                 const Adjacency& out) {
  const Mesh& mesh = scene.mesh;
  const auto triangles = static_cast<std::int64_t>(mesh.triangles.size());
  state.SetItemsProcessed(state.iterations() * triangles);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(BytesOf(scene)));
  state.counters["triangles"] = static_cast<double>(triangles);
  state.counters["particles"] = static_cast<double>(mesh.particles());
  state.counters["max_adjacent"] = out.max_adjacent;
}

void BenchVariant(benchmark::State& state, const Variant& variant,
                  Scene& scene) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  const Mesh& mesh = scene.mesh;
  Adjacency out;
  std::vector<Triangle> placed;
  const Triangle* timed_input = nullptr;
  try {
    variant.run(mesh.triangles, mesh.particles(), out);
    if (const std::string difference = Disagreement(scene, out);
        !difference.empty()) {
      state.SkipWithError(
          ("output differs from the oracle: " + difference).c_str());
      return;
    }
    const std::span<const Triangle> input = PlacedAfter(
        out.csr.indices.data(), scene.page_gap, mesh.triangles, placed);
    timed_input = input.data();
    for (auto _ : state) {
      variant.run(input, mesh.particles(), out);
      benchmark::DoNotOptimize(out.csr.indices.data());
      benchmark::ClobberMemory();
    }
    if (const std::string difference = Disagreement(scene, out);
        !difference.empty()) {
      state.SkipWithError(
          ("output differs from the oracle (placed input): " + difference)
              .c_str());
      return;
    }
  } catch (const std::exception& error) {
    // A CUDA error or exhausted memory loses this row, not the whole run.
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, scene, out);
  // The gap the timed input had (the placement falls back to any gap on an
  // allocator whose blocks are not 4-byte aligned).
  state.counters["page_gap"] = static_cast<double>(
      (reinterpret_cast<std::uintptr_t>(timed_input) -
       reinterpret_cast<std::uintptr_t>(out.csr.indices.data())) %
      kPage);
  state.counters["verified"] = 1;
  if (variant.backend == Backend::kCuda) {
    bench::DescribeGpuRun(state);
    return;
  }
  bench::DescribeCpuRun(state, out.threads, "cpu");
}

#if ADJ_HAVE_CUDA
// Device-resident: the kernels alone, by CUDA events, beside
// triangle_adjacency/memcpy_cuda/... (RegisterDeviceCopyLimits).
void BenchDeviceResident(benchmark::State& state, Scene& scene) {
  if (!bench::GpuUsable(state)) return;
  const Mesh& mesh = scene.mesh;
  Adjacency out;
  try {
    Check(mesh.triangles, mesh.particles());
    DeviceBuilder builder(mesh.triangles, mesh.particles());
    builder.TimeBuild();
    out = builder.Result();
    if (const std::string difference = Disagreement(scene, out);
        !difference.empty()) {
      state.SkipWithError(
          ("output differs from the oracle: " + difference).c_str());
      return;
    }
    for (auto _ : state) state.SetIterationTime(builder.TimeBuild());
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, scene, out);
  state.counters["verified"] = 1;
  bench::DescribeGpuRun(state, "device memory, kernel time");
}
#endif

// The family's input check as a pass of its own (triangle_adjacency::Check):
// what a separate check would add to a build, whose variants make the same
// test inside their count pass instead.
void BenchCheck(benchmark::State& state, const Scene& scene) {
  try {
    for (auto _ : state) {
      Check(scene.mesh.triangles, scene.mesh.particles());
      benchmark::ClobberMemory();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.SetItemsProcessed(
      state.iterations() *
      static_cast<std::int64_t>(scene.mesh.triangles.size()));
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(state, 1, "cpu, input check");
}

void AddScene(std::string name, Mesh mesh, std::size_t page_gap = kPageGap) {
  auto scene = std::make_unique<Scene>();
  scene->name = std::move(name);
  scene->mesh = std::move(mesh);
  scene->page_gap = page_gap;
  AllScenes().push_back(std::move(scene));
}

void AddRealMeshes() {
  const bool full = bench::CurrentSweep().full;
  for (const auto& path : scenes::RealMeshFiles()) {
    const std::string stem = path.stem().string();
    const bool quick =
        std::find(std::begin(kQuickMeshes), std::end(kQuickMeshes), stem) !=
        std::end(kQuickMeshes);
    const bool subdivide =
        std::find(std::begin(kSubdividedMeshes), std::end(kSubdividedMeshes),
                  stem) != std::end(kSubdividedMeshes);
    if (!full && !quick && !subdivide) continue;
    Mesh mesh;
    try {
      mesh = scenes::LoadMesh(path);
    } catch (const adj::Error&) {
      continue;  // `adjacent verify` says why; a benchmark only measures
    }
    if (mesh.triangles.empty()) continue;
    if (subdivide) {
      AddScene("cgal-" + stem + "-subdivided",
               scenes::SubdividedTo(mesh, kSubdividedTriangles));
    }
    if (full || quick) AddScene("cgal-" + stem, std::move(mesh));
  }
}

void RegisterAll() {
  bench::DescribeTable("triangle_adjacency", "variants", Variants());
  for (const std::int64_t side :
       bench::PowersOfTwo(kMinSideLog2, kMaxSideLog2)) {
    const auto quads = static_cast<std::size_t>(side);
    Mesh grid = scenes::ClothGrid(quads, quads, scenes::Diagonals::kUniform);
    Mesh shuffled = scenes::Shuffled(grid, static_cast<std::uint64_t>(side));
    if (side == (std::int64_t{1} << kMaxSideLog2)) {
      AddScene("grid_page_aliased", grid, 0);
    }
    AddScene("grid", std::move(grid));
    AddScene("grid_shuffled", std::move(shuffled));
  }
  AddRealMeshes();

  for (const auto& scene_ptr : AllScenes()) {
    Scene* scene = scene_ptr.get();
    const auto triangles =
        static_cast<std::int64_t>(scene->mesh.triangles.size());
    bench::RegisterMemcpyLimits(
        "triangle_adjacency", scene->name, "triangles", {triangles},
        [scene](std::int64_t) { return BytesOf(*scene); },
        [](std::int64_t t) { return t; });
#if ADJ_HAVE_CUDA
    bench::RegisterDeviceCopyLimits(
        "triangle_adjacency", scene->name, "triangles", {triangles},
        [scene](std::int64_t) { return BytesOf(*scene); },
        [](std::int64_t t) { return t; });
#endif
    benchmark::RegisterBenchmark(
        ("triangle_adjacency/check/" + scene->name).c_str(),
        [scene](benchmark::State& state) { BenchCheck(state, *scene); })
        ->ArgName("triangles")
        ->Arg(triangles)
        ->UseRealTime();
    for (const Variant& variant : Variants()) {
      auto* registered = benchmark::RegisterBenchmark(
          ("triangle_adjacency/" + std::string(variant.name) + "/" +
           scene->name)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene);
          });
      registered->ArgName("triangles")->Arg(triangles)->UseRealTime();
#if ADJ_HAVE_CUDA
      if (variant.backend != Backend::kCuda) continue;
      benchmark::RegisterBenchmark(
          ("triangle_adjacency/" + std::string(variant.name) + "/" +
           scene->name)
              .c_str(),
          [scene](benchmark::State& state) {
            BenchDeviceResident(state, *scene);
          })
          ->ArgNames({"triangles", "device"})
          ->Args({triangles, 1})
          ->UseManualTime();
#endif
    }
  }
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::triangle_adjacency

// connected_components/<variant>/<graph>/vertices:<V>: the time to label
// every vertex of an undirected graph (symmetric Csr) with its component's
// smallest id, the variant's input check included (see Check), and
// .../vertices:<V>/trusted:1 the same variant's kernel alone (run_trusted on
// a graph checked before timing), beside
//   - connected_components/check_graph/<graph>/vertices:<V>: that check
//     alone on one thread (offsets, ids, symmetry fingerprint), so that a
//     comparison with published codes that trust their input can subtract
//     it, and check_graph_openmp/... on every thread (what the OpenMP
//     variants run before their kernel);
//   - connected_components/memcpy*/<graph>/vertices:<V>: copies moving the
//     bytes a labelling moves at least (the Csr's offsets and indices in,
//     one label per vertex out);
//   - with a GPU, connected_components/cuda_ecl_cc/<graph>/vertices:<V>/
//     device:1: its kernels alone on the graph already on the device, timed
//     by CUDA events (DeviceLabeller), beside memcpy_cuda/<graph>/... (the
//     same bytes copied on the device).
// Graphs:
//   - lattice_removed30 / 60 / 69: a 100^3 lattice, each site removed with
//     probability 0.30, 0.60 or 0.69 (3D site percolation: occupancy 0.3116,
//     so removal 0.69 sits at the threshold: many components, one giant),
//     6-neighbour bonds, survivors numbered in lattice order;
//   - kronecker: GAP's Kronecker (A = 0.57, B = C = 0.19, 16 edges per
//     vertex, ids permuted) at scale 18 and 20 (GAP's kron20 shape);
//   - uniform: 2^20 vertices, 16 uniform edges per vertex (GAP's urand20
//     shape);
//   - path: one path of 10M vertices in natural order; path_shuffled (full
//     sweep only) the same path with shuffled ids;
//   - mesh_bunny00, mesh_bunny00_subdivided: the vertex graph of CGAL's
//     bunny00, as shipped and after one midpoint subdivision (when `make
//     data` fetched CGAL's data).
// Each variant's first result is compared with the BFS oracle's labels
// (verified = 1). items_per_second is undirected edges per second;
// counters: edges, components, vertices, threads, verified.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "algorithms/connected_components/connected_components.h"
#if ADJ_HAVE_CUDA
#include "algorithms/connected_components/device_labeller.h"
#endif
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "checks/connected_components.h"
#include "scenes/graphs.h"
#include "scenes/mesh_io.h"
#include "scenes/meshes.h"
#include "scenes/registry.h"

namespace adj::connected_components {
namespace {

// The input check's goal (docs/connected_components.md, The input check's
// cost): at most this fraction of the fastest kernel's time.
constexpr double kCheckOverKernelGoal = 0.20;

// Built by the first row that needs it (the large graphs take seconds), so
// that a filtered run builds only what it measures.
struct Scene {
  std::string name;
  std::size_t vertices = 0;
  std::function<Csr()> build;

  const Csr& Graph() {
    std::call_once(graph_once, [this] { graph = build(); });
    return graph;
  }
  const checks::connected_components::Expected& Oracle() {
    std::call_once(oracle_once, [this] {
      oracle = checks::connected_components::ExpectedOf(Graph());
    });
    return oracle;
  }
  std::size_t Bytes() {
    const Csr& g = Graph();
    return (g.offsets.size() + g.entries() + g.rows()) * sizeof(std::uint32_t);
  }

 private:
  std::once_flag graph_once;
  Csr graph;
  std::once_flag oracle_once;
  checks::connected_components::Expected oracle;
};

std::vector<std::unique_ptr<Scene>>& AllScenes() {
  static std::vector<std::unique_ptr<Scene>> scenes;
  return scenes;
}

void SetCounters(benchmark::State& state, Scene& scene) {
  const Csr& graph = scene.Graph();
  // Scenes hold no self loops or repeats: two entries per edge.
  const auto edges = static_cast<std::int64_t>(graph.entries() / 2);
  state.SetItemsProcessed(state.iterations() * edges);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(scene.Bytes()));
  state.counters["edges"] = static_cast<double>(edges);
  state.counters["vertices"] = static_cast<double>(graph.rows());
  state.counters["components"] = scene.Oracle().count;
}

// `trusted`: the variant's run_trusted (no input check) on the graph checked
// once before timing, the kernel alone; otherwise run, as shipped.
void BenchVariant(benchmark::State& state, const Variant& variant, Scene& scene,
                  bool trusted) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  const Csr& graph = scene.Graph();
  Components out;
  LabelFn* const run = trusted ? variant.run_trusted : variant.run;
  try {
    if (trusted) Check(graph);
    run(graph, out);
    const std::string difference =
        checks::connected_components::FirstDifference(scene.Oracle(), out);
    if (!difference.empty()) {
      state.SkipWithError(
          ("labels differ from the oracle: " + difference).c_str());
      return;
    }
    for (auto _ : state) {
      run(graph, out);
      benchmark::DoNotOptimize(out.labels.data());
      benchmark::ClobberMemory();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, scene);
  state.counters["verified"] = 1;
  if (variant.backend == Backend::kCuda) {
    bench::DescribeGpuRun(state);
    return;
  }
  bench::DescribeCpuRun(state, out.threads, "cpu");
}

// The check alone on `threads` threads (the OpenMP variants run it on all
// of theirs before their kernel).
void BenchCheck(benchmark::State& state, Scene& scene, int threads) {
  const Csr& graph = scene.Graph();
  try {
    for (auto _ : state) {
      Check(graph, threads);
      benchmark::ClobberMemory();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, scene);
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(state, threads, "cpu, input check only");
}

#if ADJ_HAVE_CUDA
// cuda_ecl_cc's kernels alone: the graph copied to the device once, each
// iteration's time the device's own (manual time), as prefix_sum's device
// rows; verified like the other rows.
void BenchDeviceResident(benchmark::State& state, Scene& scene) {
  if (!bench::GpuUsable(state)) return;
  try {
    const Csr& graph = scene.Graph();
    Check(graph);
    DeviceLabeller labeller(graph);
    labeller.TimeLabels();
    const std::string difference =
        checks::connected_components::FirstDifference(scene.Oracle(),
                                                      labeller.Labels());
    if (!difference.empty()) {
      state.SkipWithError(
          ("labels differ from the oracle: " + difference).c_str());
      return;
    }
    for (auto _ : state) state.SetIterationTime(labeller.TimeLabels());
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  SetCounters(state, scene);
  state.counters["verified"] = 1;
  bench::DescribeGpuRun(state, "device memory, kernel time");
}
#endif

void AddScene(std::string name, std::size_t vertices,
              std::function<Csr()> build) {
  auto scene = std::make_unique<Scene>();
  scene->name = std::move(name);
  scene->vertices = vertices;
  scene->build = std::move(build);
  AllScenes().push_back(std::move(scene));
}

// Lattices: the vertex count (survivors) is known only once built; they
// are cheap.
void AddLattice(const std::string& name, double removal) {
  auto graph = std::make_shared<Csr>(
      scenes::LatticeWithRemovals(100, 100, 100, removal, 12345));
  const std::size_t vertices = graph->rows();
  AddScene(name, vertices, [graph] { return std::move(*graph); });
}

// bunny00's vertex graph as CGAL ships it (the graph the published codes
// were measured on, see docs/connected_components.md) and once subdivided.
void AddBunny() {
  for (const auto& path : scenes::RealMeshFiles()) {
    if (path.stem() != "bunny00") continue;
    try {
      const Mesh mesh = scenes::LoadMesh(path);
      auto graph = std::make_shared<Csr>(scenes::MeshVertexGraph(mesh));
      AddScene("mesh_bunny00", graph->rows(),
               [graph] { return std::move(*graph); });
      auto subdivided = std::make_shared<Csr>(
          scenes::MeshVertexGraph(scenes::Subdivided(mesh)));
      AddScene("mesh_bunny00_subdivided", subdivided->rows(),
               [subdivided] { return std::move(*subdivided); });
    } catch (const adj::Error&) {
      // `adjacent verify` says why; a benchmark only measures.
    }
  }
}

void RegisterAll() {
  bench::DescribeTable("connected_components", "variants", Variants());
  bench::DescribeGoal("connected_components", "check_over_kernel",
                      kCheckOverKernelGoal);
  const bool full = bench::CurrentSweep().full;
  AddLattice("lattice_removed30", 0.30);
  AddLattice("lattice_removed60", 0.60);
  AddLattice("lattice_removed69", 0.69);
  for (const int scale : {18, 20}) {
    AddScene("kronecker", std::size_t{1} << scale,
             [scale] { return scenes::Kronecker(scale, 16, 27491095); });
  }
  AddScene("uniform", std::size_t{1} << 20,
           [] { return scenes::UniformRandomGraph(1 << 20, 16, 27491095); });
  constexpr std::size_t kPath = 10'000'000;
  AddScene("path", kPath, [] { return scenes::Path(kPath); });
  if (full) {
    AddScene("path_shuffled", kPath,
             [] { return scenes::Relabelled(scenes::Path(kPath), 777); });
  }
  AddBunny();

  for (const auto& scene_ptr : AllScenes()) {
    Scene* scene = scene_ptr.get();
    const auto vertices = static_cast<std::int64_t>(scene->vertices);
    const std::string suffix = "/" + scene->name;
    bench::RegisterMemcpyLimits(
        "connected_components", scene->name, "vertices", {vertices},
        [scene](std::int64_t) { return scene->Bytes(); },
        [scene](std::int64_t) {
          return static_cast<std::int64_t>(scene->Graph().entries() / 2);
        });
    bench::RegisterDeviceCopyLimits(
        "connected_components", scene->name, "vertices", {vertices},
        [scene](std::int64_t) { return scene->Bytes(); },
        [scene](std::int64_t) {
          return static_cast<std::int64_t>(scene->Graph().entries() / 2);
        });
    benchmark::RegisterBenchmark(
        ("connected_components/check_graph" + suffix).c_str(),
        [scene](benchmark::State& state) { BenchCheck(state, *scene, 1); })
        ->ArgName("vertices")
        ->Arg(vertices)
        ->UseRealTime();
    if (omp_get_max_threads() > 1) {
      benchmark::RegisterBenchmark(
          ("connected_components/check_graph_openmp" + suffix).c_str(),
          [scene](benchmark::State& state) {
            BenchCheck(state, *scene, omp_get_max_threads());
          })
          ->ArgName("vertices")
          ->Arg(vertices)
          ->UseRealTime();
    }
    for (const Variant& variant : Variants()) {
      benchmark::RegisterBenchmark(
          ("connected_components/" + std::string(variant.name) + suffix)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene, false);
          })
          ->ArgName("vertices")
          ->Arg(vertices)
          ->UseRealTime();
#if ADJ_HAVE_CUDA
      if (variant.backend == Backend::kCuda) {
        benchmark::RegisterBenchmark(
            ("connected_components/" + std::string(variant.name) + suffix)
                .c_str(),
            [scene](benchmark::State& state) {
              BenchDeviceResident(state, *scene);
            })
            ->ArgNames({"vertices", "device"})
            ->Args({vertices, 1})
            ->UseManualTime();
      }
#endif
      if (variant.run_trusted == nullptr) continue;
      benchmark::RegisterBenchmark(
          ("connected_components/" + std::string(variant.name) + suffix)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene, true);
          })
          ->ArgNames({"vertices", "trusted"})
          ->Args({vertices, 1})
          ->UseRealTime();
    }
  }
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::connected_components

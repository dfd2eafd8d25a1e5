// hash_grid/<variant>/<scene>/n:<N>: fixed-radius neighbour lists, beside
// hash_grid/memcpy*/<scene>/n:<N>, copies of the bytes a build must move at
// least (the positions in, a full list's offsets and indices out). Scenes:
//   - muller_balls: Ten Minute Physics 11's initial lattice, 24^3 = 13,824
//     balls of radius 0.025 at lattice spacing 0.075, hashed as the demo
//     does: spacing 2r, table 2N, radius 2r (no pair on the initial lattice:
//     the row measures the 27 bucket visits per ball);
//   - uniform: uniform clouds with ~30 neighbours per particle (radius 1,
//     spacing = radius, table 2N), N = 16k, 128k, 1M (the quick sweep), 1k
//     to 4M by powers of two (the full sweep);
//   - compactnsearch_sphere: CompactNSearch's demo scene at 60 points across
//     (107,392 points, radius two lattice spacings, ~28 neighbours), in
//     shuffled order; spacing = radius, table 2N.
// Each variant is checked once per scene before timing: against the
// brute-force oracle's lists up to 20k particles, against 64 brute-force
// rows above (verified = 1 either way). items_per_second is particles per
// second; counters: pairs (distinct unordered pairs found), candidates (per
// particle), duplicates (Müller's repeated entries), neighbors_per_particle,
// entries, threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "algorithms/hash_grid/hash_grid.h"
#include "benchmarks/bench_main.h"
#include "benchmarks/memcpy_limit.h"
#include "reference/hash_grid.h"
#include "scenes/clouds.h"

namespace adj::hash_grid {
namespace {

constexpr std::size_t kOracleMaxParticles = 20000;
constexpr std::size_t kSampledRows = 64;
constexpr double kUniformNeighbors = 30;

struct Scene {
  std::string name;
  Points points;
  Params params;
  // The full list's entries (for the memcpy rows' bytes), from cell_sorted:
  // a size, not a verification.
  std::size_t FullEntries() {
    std::call_once(entries_once, [this] {
      Neighbors out;
      CellSortedFull(points, params, out);
      full_entries = out.csr.entries();
    });
    return full_entries;
  }
  // The oracle's full lists, for small scenes; computed by the first row
  // that runs.
  const Csr& Oracle() {
    std::call_once(oracle_once, [this] {
      oracle = reference::NeighborLists(points, params.max_dist);
    });
    return oracle;
  }

 private:
  std::once_flag entries_once;
  std::size_t full_entries = 0;
  std::once_flag oracle_once;
  Csr oracle;
};

std::vector<std::unique_ptr<Scene>>& AllScenes() {
  static std::vector<std::unique_ptr<Scene>> scenes;
  return scenes;
}

std::size_t BytesOf(Scene& scene) {
  const std::size_t n = scene.points.size();
  return 3 * n * sizeof(float) + (n + 1) * sizeof(std::uint32_t) +
         scene.FullEntries() * sizeof(std::uint32_t);
}

// Row i as the oracle has it, in the variant's list kind (ascending).
std::vector<std::uint32_t> ExpectedRow(std::vector<std::uint32_t> full_row,
                                       std::size_t i, ListKind list) {
  if (list == ListKind::kHalf) {
    full_row.erase(std::remove_if(full_row.begin(), full_row.end(),
                                  [i](std::uint32_t j) { return j >= i; }),
                   full_row.end());
  }
  return full_row;
}

std::vector<std::uint32_t> CanonicalRow(const Neighbors& got, std::size_t i) {
  std::vector<std::uint32_t> row(got.csr.Row(i).begin(), got.csr.Row(i).end());
  if (got.order != RowOrder::kAscending) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  return row;
}

bool Agrees(Scene& scene, const Neighbors& got) {
  const std::size_t n = scene.points.size();
  try {
    ValidateCsr(got.csr, n);
  } catch (const adj::Error&) {
    return false;
  }
  if (got.csr.rows() != n) return false;
  const auto row_ok = [&](std::size_t i, std::vector<std::uint32_t> full) {
    return CanonicalRow(got, i) == ExpectedRow(std::move(full), i, got.list);
  };
  if (n <= kOracleMaxParticles) {
    const Csr& oracle = scene.Oracle();
    for (std::size_t i = 0; i < n; ++i) {
      if (!row_ok(i, {oracle.Row(i).begin(), oracle.Row(i).end()})) {
        return false;
      }
    }
    return true;
  }
  for (std::size_t k = 0; k < kSampledRows; ++k) {
    const std::size_t i = n * k / kSampledRows + k;
    if (i >= n) break;
    if (!row_ok(i, reference::NeighborRow(scene.points, scene.params.max_dist,
                                          i))) {
      return false;
    }
  }
  return true;
}

void BenchVariant(benchmark::State& state, const Variant& variant,
                  Scene& scene) {
  const Availability availability = CanRun(variant);
  if (!availability.available) {
    state.SkipWithError(availability.reason.c_str());
    return;
  }
  Neighbors out;
  try {
    variant.run(scene.points, scene.params, out);
    if (!Agrees(scene, out)) {
      state.SkipWithError("output differs from the oracle");
      return;
    }
    for (auto _ : state) {
      variant.run(scene.points, scene.params, out);
      benchmark::DoNotOptimize(out.csr.indices.data());
      benchmark::ClobberMemory();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  const auto n = static_cast<double>(scene.points.size());
  // Repeats exist only in Müller's order (the properties check it).
  const std::uint64_t duplicates =
      out.order == RowOrder::kMuller ? RepeatedEntries(out.csr) : 0;
  const std::uint64_t distinct = out.csr.entries() - duplicates;
  const std::uint64_t pairs =
      out.list == ListKind::kFull ? distinct / 2 : distinct;
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(scene.points.size()));
  state.SetBytesProcessed(state.iterations() *
                          static_cast<std::int64_t>(2 * BytesOf(scene)));
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["entries"] = static_cast<double>(out.csr.entries());
  state.counters["candidates"] =
      n == 0 ? 0 : static_cast<double>(out.candidates) / n;
  state.counters["duplicates"] = static_cast<double>(duplicates);
  state.counters["neighbors_per_particle"] =
      n == 0 ? 0 : 2 * static_cast<double>(pairs) / n;
  state.counters["table_size"] = scene.params.table_size;
  state.counters["verified"] = 1;
  bench::DescribeCpuRun(
      state, out.threads,
      std::string("cpu, ") + std::string(ListKindName(out.list)) + " list");
}

void AddScene(std::string name, Points points, float spacing, float max_dist) {
  auto scene = std::make_unique<Scene>();
  scene->name = std::move(name);
  scene->params = {spacing, max_dist,
                   static_cast<std::uint32_t>(2 * points.size())};
  scene->points = std::move(points);
  AllScenes().push_back(std::move(scene));
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

void RegisterAll() {
  const float ball_contact = 2 * scenes::kMullerBallRadius;
  AddScene("muller_balls", scenes::MullerBallsDemo(), ball_contact,
           ball_contact);
  for (const std::int64_t size : UniformSizes()) {
    const auto n = static_cast<std::size_t>(size);
    const float radius = 1.0f;
    AddScene("uniform",
             scenes::UniformCloud(
                 n, scenes::UniformSideFor(n, radius, kUniformNeighbors),
                 static_cast<std::uint64_t>(size)),
             radius, radius);
  }
  constexpr std::size_t kSphereAcross = 60;
  const float sphere_radius = scenes::CompactNSearchRadius(kSphereAcross);
  AddScene("compactnsearch_sphere",
           scenes::CompactNSearchSphere(kSphereAcross, 1), sphere_radius,
           sphere_radius);

  for (const auto& scene_ptr : AllScenes()) {
    Scene* scene = scene_ptr.get();
    const auto n = static_cast<std::int64_t>(scene->points.size());
    bench::RegisterMemcpyLimits(
        "hash_grid", scene->name, "n", {n},
        [scene](std::int64_t) { return BytesOf(*scene); },
        [](std::int64_t particles) { return particles; });
    for (const Variant& variant : Variants()) {
      auto* registered = benchmark::RegisterBenchmark(
          ("hash_grid/" + std::string(variant.name) + "/" + scene->name)
              .c_str(),
          [&variant, scene](benchmark::State& state) {
            BenchVariant(state, variant, *scene);
          });
      registered->ArgName("n")->Arg(n)->UseRealTime();
    }
  }
}

const bench::Registrar registrar(&RegisterAll);

}  // namespace
}  // namespace adj::hash_grid

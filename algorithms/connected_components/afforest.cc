// GAP's Afforest (sbeamer/gapbs src/cc.cc; Sutton, Ben-Nun, Barak, "Optimizing
// Parallel Graph Connectivity Computation via Subgraph Sampling", IPDPS
// 2018), for an undirected graph:
//   1. comp[v] = v; for r = 0, 1 (neighbour rounds): link every vertex with
//      its r-th neighbour, then compress (full pointer jumping);
//   2. the most frequent label among 1024 sampled vertices is most likely
//      the giant component's: its vertices are skipped below;
//   3. every other vertex links its remaining neighbours (from the third);
//      a final compress leaves every vertex pointing at its root.
// Link hooks the larger of two labels under the smaller with a
// compare-and-swap (std::atomic_ref, relaxed, as in ecl_cc_openmp.cc), so
// comp[v] <= v throughout and each root is its component's smallest id: the
// labels are canonical whatever the schedule. The sampling uses a fixed
// seed (raw mt19937_64 output), so the skipped label is deterministic; it
// only changes how much work step 3 does, never the labels.
#include <omp.h>

#include <atomic>
#include <random>
#include <unordered_map>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {
namespace {

constexpr int kNeighborRounds = 2;
constexpr int kSamples = 1024;
constexpr std::uint64_t kSampleSeed = 27491095;  // GAP's kRandSeed

inline std::uint32_t Load(std::uint32_t* comp, std::uint32_t v) {
  return std::atomic_ref<std::uint32_t>(comp[v]).load(
      std::memory_order_relaxed);
}

inline void Store(std::uint32_t* comp, std::uint32_t v, std::uint32_t value) {
  std::atomic_ref<std::uint32_t>(comp[v]).store(value,
                                                std::memory_order_relaxed);
}

inline bool CompareAndSwap(std::uint32_t* comp, std::uint32_t v,
                           std::uint32_t expected, std::uint32_t desired) {
  return std::atomic_ref<std::uint32_t>(comp[v]).compare_exchange_strong(
      expected, desired, std::memory_order_relaxed);
}

// GAP's Link, line for line.
inline void Link(std::uint32_t* comp, std::uint32_t u, std::uint32_t v) {
  std::uint32_t p1 = Load(comp, u);
  std::uint32_t p2 = Load(comp, v);
  while (p1 != p2) {
    const std::uint32_t high = p1 > p2 ? p1 : p2;
    const std::uint32_t low = p1 + p2 - high;
    const std::uint32_t p_high = Load(comp, high);
    // Already low, or we wrote low.
    if (p_high == low ||
        (p_high == high && CompareAndSwap(comp, high, high, low))) {
      break;
    }
    p1 = Load(comp, Load(comp, high));
    p2 = Load(comp, low);
  }
}

// GAP's Compress, inside the caller's parallel region.
inline void Compress(std::uint32_t* comp, std::int64_t vertices,
                     ExceptionTrap& trap) {
#pragma omp for schedule(dynamic, 16384)
  for (std::int64_t vertex = 0; vertex < vertices; ++vertex) {
    trap.Run([&] {
      const auto v = static_cast<std::uint32_t>(vertex);
      std::uint32_t parent = Load(comp, v);
      std::uint32_t grandparent;
      while (parent != (grandparent = Load(comp, parent))) {
        Store(comp, v, grandparent);
        parent = grandparent;
      }
    });
  }
}

// GAP's SampleFrequentElement: the most frequent of kSamples labels of
// randomly picked vertices (ties: the smallest label, for determinism).
std::uint32_t SampleFrequentLabel(const std::uint32_t* comp, std::size_t n) {
  std::unordered_map<std::uint32_t, int> counts(32);
  std::mt19937_64 engine(kSampleSeed);
  for (int i = 0; i < kSamples; ++i) ++counts[comp[engine() % n]];
  std::uint32_t best = 0;
  int best_count = -1;
  for (const auto& [label, count] : counts) {
    if (count > best_count || (count == best_count && label < best)) {
      best = label;
      best_count = count;
    }
  }
  return best;
}

}  // namespace

void AfforestLabels(const Csr& graph, Components& out) {
  Check(graph, omp_get_max_threads());
  AfforestLabelsTrusted(graph, out);
}

void AfforestLabelsTrusted(const Csr& graph, Components& out) {
  const int threads = omp_get_max_threads();
  const std::size_t n = graph.rows();
  out.labels.resize(n);
  std::uint32_t* comp = out.labels.data();
  const std::uint32_t* offsets = graph.offsets.data();
  const std::uint32_t* indices = graph.indices.data();
  const auto vertices = static_cast<std::int64_t>(n);
  std::uint32_t frequent = 0;
  std::uint32_t count = 0;
  int team = 1;
  // Every loop body runs in the trap: once a thread fails, the others skip
  // what is left (the labels are then not all valid ids to follow) but
  // still reach every barrier.
  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
#pragma omp single nowait
    team = omp_get_num_threads();
#pragma omp for schedule(static)
    for (std::int64_t v = 0; v < vertices; ++v) {
      trap.Run([&] {
        fault::Point("connected_components.afforest");
        Store(comp, static_cast<std::uint32_t>(v),
              static_cast<std::uint32_t>(v));
      });
    }
    for (int round = 0; round < kNeighborRounds; ++round) {
#pragma omp for schedule(dynamic, 16384)
      for (std::int64_t vertex = 0; vertex < vertices; ++vertex) {
        trap.Run([&] {
          const auto u = static_cast<std::uint32_t>(vertex);
          const std::uint32_t k =
              offsets[u] + static_cast<std::uint32_t>(round);
          if (k < offsets[u + 1]) Link(comp, u, indices[k]);
        });
      }
      Compress(comp, vertices, trap);
    }
#pragma omp single
    trap.Run([&] { frequent = n == 0 ? 0 : SampleFrequentLabel(comp, n); });
#pragma omp for schedule(dynamic, 16384)
    for (std::int64_t vertex = 0; vertex < vertices; ++vertex) {
      trap.Run([&] {
        const auto u = static_cast<std::uint32_t>(vertex);
        if (Load(comp, u) == frequent) return;
        for (std::uint32_t k = offsets[u] + kNeighborRounds; k < offsets[u + 1];
             ++k) {
          Link(comp, u, indices[k]);
        }
      });
    }
    Compress(comp, vertices, trap);
#pragma omp for schedule(static) reduction(+ : count)
    for (std::int64_t v = 0; v < vertices; ++v) {
      count += comp[v] == static_cast<std::uint32_t>(v) ? 1 : 0;
    }
  }
  trap.Rethrow();
  out.count = count;
  out.threads = team;
}

}  // namespace adj::connected_components

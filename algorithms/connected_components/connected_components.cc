#include "algorithms/connected_components/connected_components.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <string>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {

std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"dfs",
            Backend::kSerial,
            Origin::kBaseline,
            "depth-first search from each unlabelled vertex in ascending "
            "order, iterative (an explicit stack of vertices, marked when "
            "pushed): no recursion, a 10M-vertex path is fine",
            &DfsLabels,
            {},
            &DfsLabelsTrusted},
    Variant{"bfs",
            Backend::kSerial,
            Origin::kBaseline,
            "breadth-first search from each unlabelled vertex in ascending "
            "order, the labels array doubling as the visited set and one "
            "vector as the queue",
            &BfsLabels,
            {},
            &BfsLabelsTrusted},
    Variant{"union_find",
            Backend::kSerial,
            Origin::kBaseline,
            "serial union-find over every edge (u > v): path halving, the "
            "larger root hooked under the smaller, so roots are the "
            "component minima; one ascending pass flattens",
            &UnionFindLabels,
            {},
            &UnionFindLabelsTrusted},
    Variant{"ecl_cc",
            Backend::kSerial,
            Origin::kFaithful,
            "ECL-CC (Jaiganesh & Burtscher, HPDC 2018) without threads: "
            "parent = first smaller neighbour, hooking of each edge once "
            "(v > u) larger root under smaller, intermediate pointer "
            "jumping in find, final flattening",
            &EclCcLabels,
            {},
            &EclCcLabelsTrusted},
    Variant{"ecl_cc_openmp", Backend::kOpenMp, Origin::kFaithful,
            "ECL-CC's OpenMP version: the same three phases as parallel "
            "loops (guided schedule), hooking by compare-and-swap through "
            "std::atomic_ref, relaxed loads and stores as in the race-free "
            "ECL Suite variant",
            &EclCcOpenMpLabels, "ecl_cc", &EclCcOpenMpLabelsTrusted},
    Variant{"afforest", Backend::kOpenMp, Origin::kFaithful,
            "GAP's Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018): link "
            "each vertex to its first 2 neighbours (one round each, then "
            "compress), find the most frequent component from 1024 "
            "samples, link the remaining edges of every vertex outside it, "
            "compress",
            &AfforestLabels, "union_find", &AfforestLabelsTrusted},
    Variant{.name = "boost_dfs",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "Boost.Graph's connected_components (depth-first search) on "
                "an undirected adjacency_list<vecS, vecS> built from the "
                "edges, as its documentation shows; Boost's component "
                "numbers relabelled to each component's smallest vertex",
            .run = &BoostDfsLabels,
            .run_trusted = &BoostDfsLabelsTrusted,
            .peer = &peers::BoostGraph},
    Variant{.name = "boost_disjoint_sets",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "Boost's disjoint_sets (union by rank, path compression; "
                "what Boost.Graph's incremental_components uses): "
                "union_set per edge, then find_set per vertex relabelled to "
                "each component's smallest vertex",
            .run = &BoostDisjointSetsLabels,
            .run_trusted = &BoostDisjointSetsLabelsTrusted,
            .peer = &peers::BoostGraph},
    Variant{.name = "igraph_components",
            .backend = Backend::kSerial,
            .origin = Origin::kPeer,
            .description =
                "igraph's igraph_connected_components (IGRAPH_WEAK, a "
                "breadth-first search) on an undirected igraph_t made by "
                "igraph_create from the edges; igraph's membership "
                "relabelled to each component's smallest vertex",
            .run = &IgraphLabels,
            .run_trusted = &IgraphLabelsTrusted,
            .peer = &peers::Igraph},
#if ADJ_HAVE_CUDA
    Variant{"cuda_ecl_cc",
            Backend::kCuda,
            Origin::kFaithful,
            "ECL-CC's CUDA phases (init, compute with atomicCAS hooking "
            "and intermediate pointer jumping, flatten), one thread per "
            "vertex (no warp/block kernels for high degree yet); host "
            "memory in and out",
            &CudaEclCcLabels,
            {},
            &CudaEclCcLabelsTrusted},
#endif
  };
  return kVariants;
}

namespace {

[[noreturn]] void ThrowFirstBadId(const Csr& graph) {
  const std::size_t n = graph.rows();
  for (std::size_t row = 0; row < n; ++row) {
    for (std::uint32_t k = graph.offsets[row]; k < graph.offsets[row + 1];
         ++k) {
      if (graph.indices[k] >= n) {
        throw Error("connected_components: row " + std::to_string(row) +
                    " (entry " + std::to_string(k) + ") names vertex " +
                    std::to_string(graph.indices[k]) + ", but there are only " +
                    std::to_string(n) + " vertices");
      }
    }
  }
  throw Error("connected_components: a neighbour id is out of range");
}

}  // namespace

void Check(const Csr& graph, int threads) {
  // The offsets are validated inside the parallel pass (each row's range
  // before its entries are read); ValidateCsr runs only to name a defect.
  const auto throw_malformed = [&graph] {
    try {
      ValidateCsr(graph);
    } catch (const adj::Error& error) {
      throw Error(std::string("connected_components: ") + error.what());
    }
    throw Error("connected_components: malformed offsets");
  };
  if (graph.offsets.empty() || graph.offsets.front() != 0 ||
      graph.offsets.back() != graph.indices.size()) {
    throw_malformed();
  }
  const std::size_t n = graph.rows();
  if (n > kMaxVertices) {
    throw Error("connected_components: " + std::to_string(n) +
                " vertices, more than uint32 labels allow (" +
                std::to_string(kMaxVertices) + ")");
  }
  // Chunks of rows, dynamically dealt: Kronecker graphs put most entries
  // in a few rows.
  constexpr std::size_t kChunkRows = 4096;
  const auto chunks =
      static_cast<std::int64_t>((n + kChunkRows - 1) / kChunkRows);
  std::uint64_t fingerprint = 0;
  bool bad = false;
  bool malformed = false;
  ExceptionTrap trap;
#pragma omp parallel for num_threads(std::max(threads, 1)) \
    schedule(dynamic, 1) reduction(+ : fingerprint) reduction(|| : bad, malformed)
  for (std::int64_t chunk = 0; chunk < chunks; ++chunk) {
    trap.Run([&] {
      fault::Point("connected_components.check");
      const std::size_t begin = static_cast<std::size_t>(chunk) * kChunkRows;
      bool out_of_range = false;
      bool chunk_malformed = false;
      fingerprint += detail::SymmetryFingerprint(
          graph, begin, std::min(n, begin + kChunkRows), &out_of_range,
          &chunk_malformed);
      bad = bad || out_of_range;
      malformed = malformed || chunk_malformed;
    });
  }
  trap.Rethrow();
  if (malformed) throw_malformed();
  if (bad) ThrowFirstBadId(graph);
  if (fingerprint != 0) {
    throw Error(
        "connected_components: the Csr is not symmetric (some v in row u "
        "without u in row v as often): an undirected graph needs both "
        "directions of every edge");
  }
}

bool IsSymmetricExact(const Csr& graph) {
  const std::size_t n = graph.rows();
  std::vector<std::uint32_t> starts(n + 1, 0);
  for (const std::uint32_t v : graph.indices) ++starts[v + 1];
  for (std::size_t v = 0; v < n; ++v) starts[v + 1] += starts[v];
  std::vector<std::uint32_t> transposed(graph.entries());
  std::vector<std::uint32_t> cursor(starts.begin(), starts.end() - 1);
  for (std::size_t u = 0; u < n; ++u) {
    for (const std::uint32_t v : graph.Row(u)) {
      transposed[cursor[v]++] = static_cast<std::uint32_t>(u);
    }
  }
  std::vector<std::uint32_t> row;
  for (std::size_t v = 0; v < n; ++v) {
    row.assign(graph.Row(v).begin(), graph.Row(v).end());
    std::sort(row.begin(), row.end());
    // The transpose's rows are ascending: sources were visited in order.
    if (!std::equal(row.begin(), row.end(), transposed.begin() + starts[v],
                    transposed.begin() + starts[v + 1])) {
      return false;
    }
  }
  return true;
}

std::uint32_t CountRoots(std::span<const std::uint32_t> labels) {
  std::uint32_t count = 0;
  for (std::size_t v = 0; v < labels.size(); ++v) {
    count += labels[v] == v ? 1 : 0;
  }
  return count;
}

}  // namespace adj::connected_components

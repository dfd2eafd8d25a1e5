// ECL-CC's OpenMP version (ECL-CC_11.cpp): init, compute and flatten as
// parallel loops with guided scheduling, hooking by compare-and-swap. Every
// access to the parent array goes through std::atomic_ref with relaxed
// order, as the race-free ECL Suite variant (ECL-CC-atomic) does with
// cuda::atomic: the algorithm needs no ordering, only that each parent value
// is read and written whole. A parent only ever decreases and a CAS succeeds
// only on a root (parent == self), hooking it under a smaller root: each
// component's smallest id stays its root whatever the interleaving, so the
// labels equal the serial ones on every thread count.
#include <omp.h>

#include <algorithm>
#include <atomic>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/connected_components/variants.h"

namespace adj::connected_components {
namespace {

inline std::uint32_t Load(std::uint32_t* parent, std::uint32_t v) {
  return std::atomic_ref<std::uint32_t>(parent[v]).load(
      std::memory_order_relaxed);
}

inline void Store(std::uint32_t* parent, std::uint32_t v, std::uint32_t value) {
  std::atomic_ref<std::uint32_t>(parent[v]).store(value,
                                                  std::memory_order_relaxed);
}

// parent[v] = desired if it was v; returns the value it held.
inline std::uint32_t CompareAndSwap(std::uint32_t* parent, std::uint32_t v,
                                    std::uint32_t desired) {
  std::uint32_t expected = v;
  std::atomic_ref<std::uint32_t>(parent[v]).compare_exchange_strong(
      expected, desired, std::memory_order_relaxed);
  return expected;
}

inline std::uint32_t Representative(std::uint32_t* parent, std::uint32_t v) {
  std::uint32_t current = Load(parent, v);
  if (current != v) {
    std::uint32_t previous = v;
    std::uint32_t next;
    while (current > (next = Load(parent, current))) {
      Store(parent, previous, next);
      previous = current;
      current = next;
    }
  }
  return current;
}

}  // namespace

void EclCcOpenMpLabels(const Csr& graph, Components& out) {
  Check(graph, omp_get_max_threads());
  EclCcOpenMpLabelsTrusted(graph, out);
}

void EclCcOpenMpLabelsTrusted(const Csr& graph, Components& out) {
  const int threads = omp_get_max_threads();
  const std::size_t n = graph.rows();
  out.labels.resize(n);
  std::uint32_t* parent = out.labels.data();
  const std::uint32_t* offsets = graph.offsets.data();
  const std::uint32_t* indices = graph.indices.data();
  const auto vertices = static_cast<std::int64_t>(n);
  std::uint32_t count = 0;
  int team = 1;
  // Every loop body runs in the trap: once a thread fails, the others skip
  // what is left (the parents are then not all valid ids to follow) but
  // still reach every barrier.
  ExceptionTrap trap;
#pragma omp parallel num_threads(threads)
  {
#pragma omp single nowait
    team = omp_get_num_threads();
#pragma omp for schedule(guided)
    for (std::int64_t v = 0; v < vertices; ++v) {
      trap.Run([&] {
        fault::Point("connected_components.ecl_cc_openmp");
        auto m = static_cast<std::uint32_t>(v);
        for (std::uint32_t k = offsets[v]; m == v && k < offsets[v + 1]; ++k) {
          m = std::min(m, indices[k]);
        }
        Store(parent, static_cast<std::uint32_t>(v), m);
      });
    }
#pragma omp for schedule(guided)
    for (std::int64_t vertex = 0; vertex < vertices; ++vertex) {
      trap.Run([&] {
        const auto v = static_cast<std::uint32_t>(vertex);
        if (Load(parent, v) == v) return;
        std::uint32_t v_rep = Representative(parent, v);
        for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
          const std::uint32_t u = indices[k];
          if (u >= v) continue;
          std::uint32_t u_rep = Representative(parent, u);
          while (v_rep != u_rep) {
            if (v_rep < u_rep) {
              const std::uint32_t seen = CompareAndSwap(parent, u_rep, v_rep);
              if (seen == u_rep) break;
              u_rep = seen;
            } else {
              const std::uint32_t seen = CompareAndSwap(parent, v_rep, u_rep);
              if (seen == v_rep) break;
              v_rep = seen;
            }
          }
        }
      });
    }
#pragma omp for schedule(guided) reduction(+ : count)
    for (std::int64_t vertex = 0; vertex < vertices; ++vertex) {
      trap.Run([&] {
        const auto v = static_cast<std::uint32_t>(vertex);
        const std::uint32_t old = Load(parent, v);
        std::uint32_t root = old;
        std::uint32_t next;
        while (root > (next = Load(parent, root))) root = next;
        if (root != old) Store(parent, v, root);
        count += root == v ? 1 : 0;
      });
    }
  }
  trap.Rethrow();
  out.count = count;
  out.threads = team;
}

}  // namespace adj::connected_components

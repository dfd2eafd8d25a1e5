#pragma once

#include <omp.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "algorithms/common/backend.h"
#include "algorithms/common/cuda.h"
#include "algorithms/common/peers.h"

namespace adj {

// Where an implementation comes from: the published algorithm reproduced
// with its quirks (faithful), the published algorithm with a quirk repaired
// (fixed), ours, a textbook baseline to compare with, or a library people
// use instead of the suite (peer: called as its documentation recommends,
// its output converted to the family's).
enum class Origin { kFaithful, kFixed, kOurs, kBaseline, kPeer };

constexpr std::string_view OriginName(Origin origin) {
  switch (origin) {
    case Origin::kFaithful:
      return "faithful";
    case Origin::kFixed:
      return "fixed";
    case Origin::kOurs:
      return "ours";
    case Origin::kBaseline:
      return "baseline";
    case Origin::kPeer:
      return "peer";
  }
  return "unknown";
}

// One row of a family's variant table: an implementation of the family's
// signature `Fn`, named and tagged with its backend and origin. Properties,
// benchmarks, the command line and the docs iterate the table; adding an
// implementation is one file, its declaration in the family's variants.h,
// one row and one CMake source line (tools/throwaway-variant.sh proves it).
//
// Threads follow the backend: serial and simd rows run on the calling
// thread, openmp rows on omp_get_max_threads() threads, cuda rows on the
// device. An openmp row with a `twin` must give exactly the twin's output
// whatever the thread count (tests check it from the table).
//
// A table's first row is its baseline: the single-threaded row the reports
// compare every other row with (the published algorithm where the family
// reproduces one, else the textbook one). Benchmarks write each table into
// their JSON, so reports find it there.
// A family's payload in each row beyond the fields every table has: the
// axes of a row that is a recipe of shared parts (which definition a step
// follows, which merge a fracture frame makes), and a CUDA row's device
// entry (what its resident runner calls). A family with none uses NoTraits.
// Each Traits type has a TraitsText (found by argument-dependent lookup)
// that `adjacent variants` prints: its axes as "axis=value ...", "" for
// none.
struct NoTraits {};
inline std::string TraitsText(const NoTraits&) { return ""; }

template <typename Fn, typename Traits = NoTraits>
struct Variant {
  std::string_view name;
  Backend backend;
  Origin origin;
  // What a user should know when comparing it: whose algorithm it follows,
  // and any quirk it keeps on purpose.
  std::string_view description;
  Fn* run;
  // The name of the single-threaded row of the same table this row must
  // equal output for output; empty when none.
  std::string_view twin = {};
  // The same kernel without the input check, for input the caller has
  // already passed through the family's Check (run = Check + run_trusted);
  // null where skipping the check would save nothing measurable: it is
  // O(1) (prefix_sum, compaction, hash_set), one compare per corner inside
  // the count pass (triangle_adjacency), or one pass before a warp
  // scheduler that costs a hundred times more; their docs measure it.
  Fn* run_trusted = nullptr;
  // For an openmp row without a twin: why none can be (its output depends
  // on the thread count, or no single-threaded row computes it); the table
  // test requires it there and nowhere else.
  std::string_view untwinned = {};
  // For an openmp row whose thread count depends on its input: the threads
  // it runs `items` items on (benchmarks report it; a check judges a row
  // whose output depends on its threads by it). Null: ThreadsOf's default.
  int (*threads)(std::size_t items) = nullptr;
  Traits traits = {};
  // A peer row's library (origin kPeer, and only there): what it calls, as
  // the build found it. A peer not found at build time leaves its row in
  // the table, unable to run (CanRun says why).
  const peers::Library& (*peer)() = nullptr;
};

// The threads `variant` runs `items` items on: its own count where it has
// one, else omp_get_max_threads() for an openmp row and 1 for the others
// (a cuda row's host thread).
template <typename Fn, typename Traits>
int ThreadsOf(const Variant<Fn, Traits>& variant, std::size_t items) {
  if (variant.threads != nullptr) return variant.threads(items);
  return variant.backend == Backend::kOpenMp ? omp_get_max_threads() : 1;
}

// A peer row's library as the build found it ("Boost.Graph 1.74.0"), or
// its name alone where the build did not find it; "" for the suite's own
// rows.
template <typename Fn, typename Traits>
std::string LibraryOf(const Variant<Fn, Traits>& variant) {
  if (variant.peer == nullptr) return "";
  const peers::Library& library = variant.peer();
  return library.found() ? library.Describe() : std::string(library.name);
}

template <typename Fn, typename Traits>
Availability CanRun(const Variant<Fn, Traits>& variant) {
  if (variant.peer != nullptr && !variant.peer().found()) {
    return {false, std::string(variant.peer().name) +
                       " was not found when the suite was built (Debian: " +
                       std::string(variant.peer().package) + ")"};
  }
  if (variant.backend != Backend::kCuda) return {true, ""};
  return cuda::Available();
}

template <typename Fn, typename Traits>
const Variant<Fn, Traits>* FindVariant(
    std::span<const Variant<Fn, Traits>> table, std::string_view name) {
  for (const auto& variant : table) {
    if (variant.name == name) return &variant;
  }
  return nullptr;
}

}  // namespace adj

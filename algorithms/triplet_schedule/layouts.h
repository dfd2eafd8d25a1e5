#pragma once

// Internal to the family: the pipelines and warp layouts the warp
// schedulers are recipes of, each in its own file.

#include <cstddef>
#include <functional>
#include <span>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// A set's triplets laid out in warps of 32 (out: the same triplets, in
// warp order), aiming at few replays.
using WarpLayout = void(std::span<const Triplet> set, std::span<Triplet> out);
// bank_matched_warp's colouring and warp matching; with `alternative`, each
// set whose layout replays more than 1 % above its SetReplaysFloor is also
// laid out by it, and the layout with fewer replays is kept
// (bank_matched_layout.cc).
void BankMatchedSchedule(std::span<const Triplet> input,
                         std::size_t particle_count, unsigned width,
                         Schedule& out, WarpLayout* alternative);
// Lays a set out into out[0, set.size()), or returns false, out untouched,
// to leave it to the scheduler's own layout.
using SetBuilder = bool(std::span<const Triplet> set, Triplet* out);
// How BfsBankedSchedule runs: each set is first offered to `builder`
// (none: bfs_banked_warp's layout for all); `spread_passes` of SpreadBanks
// after the colouring (and with them, where the input-order colouring
// crowds the banks, WarpModelColouring's sets as its model laid them out,
// on one thread); the sets laid out on `threads` OpenMP threads (the
// colouring on one), the schedule the same on every count.
// With `colour`, the sets are its colours as given (a peer's colouring,
// peer_schedules.cc): none of the steps that choose or repair a colouring
// runs, only the layout.
struct BfsOptions {
  SetBuilder* builder = nullptr;
  int threads = 1;
  int spread_passes = 0;
  std::function<Colouring(const triangle_adjacency::Adjacency&)> colour;
};
// The bfs_* schedulers' colouring and layout (banked_layout.cc).
void BfsBankedSchedule(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out, const BfsOptions& options);
// BfsBankedSchedule's last step: each colour of `colouring` one set, in
// colour order (out.set_sizes), each set offered to `builder` (may be null)
// and otherwise laid out by bfs_banked_warp's layout, on `threads` OpenMP
// threads (out.threads: the team's size).
void LayOutSets(std::span<const Triplet> input, const Colouring& colouring,
                SetBuilder* builder, int threads, Schedule& out);
// Below this many triplets the *_warp_openmp schedulers lay their sets out
// on one thread: the team's start costs more than it saves
// (docs/triplet_schedule.md#threads).
inline constexpr std::size_t kThreadedTriplets = 2048;
// The OpenMP threads a *_warp_openmp scheduler lays `triplets` out on:
// all from kThreadedTriplets on, else 1 (banked_layout.cc).
int LayoutThreads(std::size_t triplets);
// bfs_built_warp's builder: large sets' full warps built whole
// (built_warps_layout.cc).
SetBuilder BuildWarpsWhole;
// bfs_walk_warp's builder: BuildWarpsWhole, on sets from 16 warps (not
// 32), with a random walk where greedy and its repair leave a warp's groups
// without a cell (built_warps_layout.cc).
SetBuilder BuildWarpsWalked;
// round_matched_warp's layout (round_matched_layout.cc).
WarpLayout RoundMatchedLayout;
// transversal_warp's layout: conflict-free warps built whole, leftovers
// into the holes (transversal_layout.cc).
WarpLayout TransversalLayout;

// A warp scheduler that is a recipe of the parts above: its row's Traits,
// run (a row's `run` is Recipe<its traits>).
template <Traits kRecipe>
void Recipe(std::span<const Triplet> input, std::size_t particle_count,
            unsigned width, Schedule& out) {
  static_assert(kRecipe.pipeline != Pipeline::kNone, "not a recipe");
  if constexpr (kRecipe.pipeline == Pipeline::kBreadthFirst) {
    static_assert(kRecipe.layout == Layout::kPipelines ||
                  kRecipe.layout == Layout::kBuiltWhole ||
                  kRecipe.layout == Layout::kWalked);
    SetBuilder* const builder =
        kRecipe.layout == Layout::kBuiltWhole ? &BuildWarpsWhole
        : kRecipe.layout == Layout::kWalked   ? &BuildWarpsWalked
                                              : nullptr;
    BfsBankedSchedule(
        input, particle_count, width, out,
        {.builder = builder,
         .threads = kRecipe.threaded ? LayoutThreads(input.size()) : 1,
         .spread_passes = kRecipe.spread_passes,
         .colour = {}});
  } else {
    static_assert(kRecipe.layout == Layout::kPipelines ||
                  kRecipe.layout == Layout::kRoundMatched ||
                  kRecipe.layout == Layout::kTransversal);
    static_assert(kRecipe.spread_passes == 0 && !kRecipe.threaded);
    WarpLayout* const alternative =
        kRecipe.layout == Layout::kRoundMatched  ? &RoundMatchedLayout
        : kRecipe.layout == Layout::kTransversal ? &TransversalLayout
                                                 : nullptr;
    BankMatchedSchedule(input, particle_count, width, out, alternative);
  }
}

}  // namespace adj::triplet_schedule

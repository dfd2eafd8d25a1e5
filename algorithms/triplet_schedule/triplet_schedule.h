#pragma once

// triplet_schedule: reorder virtual-particle triplets (p0, p1, p2, weight)
// so that the kernels that scatter into their particles can run many at
// once without two touching the same particle. Two targets, two tables:
//
//   simd schedulers (NvCloth's TripletScheduler::simd, width W = SIMD lanes):
//     out.triplets is the input permuted, cut into sets, each set followed
//     by (W - size % W) % W copies of the dummy (N, N+1, N+2, 0); every
//     aligned group of W (a batch) holds W triplets no two of which share a
//     particle below N. A triplet may repeat its own particle.
//
//   warp schedulers (NvCloth's TripletScheduler::warp, W = warp width 16 or
//     32): out.triplets is the input permuted, no padding, cut into
//     consecutive sets (out.set_sizes) that are independent sets: no two
//     triplets of a set share a particle. The order inside a set is what the
//     bank-conflict model optimises: warp m of a set is its positions
//     [32m, 32m + 32).
//
// Every scheduler:
//   - sums out.set_sizes to the triplet count (sizes without padding, as
//     NvCloth's mSetSizes), and reports its padding;
//   - throws triplet_schedule::Error naming the first triplet with a
//     particle index >= particle_count, and, where its output is 16-bit as
//     NvCloth's Vec4us, when an index (the dummies N..N+2 included) or a
//     weight index does not fit 16 bits;
//   - accepts no triplets (no sets) and reuses out's buffers.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/variant.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"

namespace adj::triplet_schedule {

struct Schedule {
  // The final order, padding included (simd).
  std::vector<Triplet> triplets;
  // Triplets per set, padding excluded.
  std::vector<std::uint32_t> set_sizes;
  // Dummy triplets in `triplets`.
  std::uint32_t padding = 0;
  // The lane or warp width the schedule was built for.
  unsigned width = 0;
  // 16 where the variant's output is NvCloth's 16-bit Vec4us (the indices
  // here are those values, widened), else 32.
  unsigned index_bits = 32;
  // Threads the scheduler ran on.
  int threads = 1;
};

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

using ScheduleFn = void(std::span<const Triplet> triplets,
                        std::size_t particle_count, unsigned width,
                        Schedule& out);
using Variant = adj::Variant<ScheduleFn>;

// Widths each table accepts; anything else is an Error.
inline constexpr unsigned kNvClothSimdWidth = 4;
bool IsValidSimdWidth(unsigned width);  // 1..64
bool IsValidWarpWidth(unsigned width);  // 16 or 32, as NvCloth asserts

std::span<const Variant> SimdSchedulers();
std::span<const Variant> WarpSchedulers();

// The dummy triplet simd schedules pad with: three particles just past the
// real ones (a consumer keeps them zeroed, inverse mass 0), weight 0.
inline Triplet DummyTriplet(std::size_t particle_count) {
  const auto n = static_cast<std::uint32_t>(particle_count);
  return {n, n + 1, n + 2, 0};
}

// Shared input checks: width for the table, every particle index below
// particle_count (naming the first bad triplet), and with index_bits == 16
// every index, dummy and weight within uint16.
void CheckSimdInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits);
void CheckWarpInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits);

// The bank model of calculateNumReplays (notes section 5.4): shared
// memory's 32 banks, and the chunk of 32 triplets (a warp) it counts in,
// whatever the schedule's width.
inline constexpr std::uint32_t kBanks = 32;
inline constexpr std::uint32_t kWarp = 32;

// Shared steps of the schedulers.
// The warp schedulers' opening: checks the input, empties out and records
// width, index_bits and 1 thread.
void StartWarpSchedule(std::span<const Triplet> triplets,
                       std::size_t particle_count, unsigned width,
                       unsigned index_bits, Schedule& out);
// NvCloth's AdjacencyQuerier over the triplets' particles: row p lists the
// triplets naming p (descending), max_adjacent is maxAdjacentCount.
triangle_adjacency::Adjacency TripletAdjacency(
    std::span<const Triplet> triplets, std::size_t particle_count);
// Greedy smallest-free colouring, visiting the triplets breadth first over
// shared particles: a connected front of the mesh, whatever order its
// triplets and particle ids came in, which keeps greedy near maxAdj colours
// on permuted meshes, where input order (NvCloth's) spreads them. Where
// maxAdj <= kMaskedMaxAdjacent the front is one of particles, and each
// particle's uncoloured triplets (its fan) are coloured in its row's order
// or most saturated first (most colours taken around them): fewer colours
// on permuted grids, at more cost, and on natural grids sets whose banks
// bank_matched_warp's SpreadBanks could no longer spread.
enum class FanOrder { kRowOrder, kMostSaturated };
struct Colouring {
  std::vector<std::uint32_t> colour;  // per input triplet
  std::vector<std::uint32_t> order;   // the breadth-first visiting order
  std::uint32_t colours = 0;
};
Colouring BreadthFirstColouring(std::span<const Triplet> triplets,
                                const triangle_adjacency::Adjacency& adjacency,
                                FanOrder fan_order);
// The same greedy in input order (NvCloth's visiting order; `order` is the
// input order), on 64-bit colour masks: only for maxAdj <=
// kMaskedMaxAdjacent, where greedy needs at most 3 (maxAdj - 1) + 1 <= 64
// colours.
inline constexpr std::uint32_t kMaskedMaxAdjacent = 21;
Colouring InputOrderColouring(std::span<const Triplet> triplets,
                              std::size_t particle_count);
// NvCloth's best fit in input order (warp(): each triplet to the set where
// its bank replays grow least, by the model reset every 32 triplets, the
// first such), on colour masks: among the free colours below `limit`, else
// the smallest free one. Each colour's triplets in input order are then its
// warps, as the model saw them; `replays` is their replays (SetReplays
// summed over the sets). Only for maxAdj <= kMaskedMaxAdjacent.
Colouring WarpModelColouring(std::span<const Triplet> triplets,
                             std::size_t particle_count, std::uint32_t limit,
                             std::uint64_t& replays);
// SetReplaysFloor summed over the colours of `colour` (one set each), and
// in `ideal` their ideal replays (3 per chunk of 32).
std::uint64_t ColouringReplaysFloor(std::span<const Triplet> triplets,
                                    std::span<const std::uint32_t> colour,
                                    std::uint32_t colours,
                                    std::uint64_t& ideal);
// Calls f(v) for every triplet v != t sharing a particle with t (a triplet
// sharing two particles comes twice).
template <class F>
void ForEachNeighbour(std::span<const Triplet> triplets,
                      const triangle_adjacency::Adjacency& adjacency,
                      std::uint32_t t, F&& f) {
  for (int k = 0; k < 3; ++k) {
    for (const std::uint32_t v : adjacency.csr.Row(triplets[t][k])) {
      if (v != t) f(v);
    }
  }
}

// Lowers the colour count toward `floor` (at least 1) while the top colour
// can be emptied: each of its triplets moves to a lower colour no
// neighbour holds, or, where exactly one neighbour u blocks a lower colour,
// u moves to a third colour first (a one-step Kempe swap), or, with
// `kempe_chains`, after a Kempe interchange of two lower colours (chains
// of at most 256 triplets, at most one visit per input triplet over the
// call). Stops at the first top colour it cannot empty (some of its
// triplets possibly moved, every colour still an independent set);
// returns the new count (colours stay 0..count-1).
std::uint32_t RemoveColours(std::span<const Triplet> triplets,
                            const triangle_adjacency::Adjacency& adjacency,
                            std::vector<std::uint32_t>& colour,
                            std::uint32_t colours, std::uint32_t floor,
                            bool kempe_chains = false);
// Moves triplets between colours (only to colours none of their neighbours
// holds, so every colour stays an independent set and the count stays) to
// spread each colour's triplets over the banks: a colour whose slot-0
// particles fall on 8 banks cannot make warps of 32 without 4-way
// conflicts, and greedy colouring of a regular mesh makes such colours.
// A triplet's crowding in colour c is, summed over its slots, how far its
// bank's count in c exceeds c's size / 32 (times 32); each triplet, in
// index order, moves to the free colour where it is least crowded (the
// lowest such colour on ties), if less than where it is; a triplet whose
// crowding where it is is at most 0 (no more crowded than the colour's
// average) stays. Passes over every triplet while the last moved at
// least 1 % of them, at most `passes`.
void SpreadBanks(std::span<const Triplet> triplets,
                 const triangle_adjacency::Adjacency& adjacency,
                 std::size_t particle_count, std::vector<std::uint32_t>& colour,
                 std::uint32_t colours, int passes);
// The triplets of each colour as one set, colour by colour, each in
// colouring.order's order: sets `set_sizes` (one per colour) and returns the
// triplet ids set after set; set c starts at the sum of the sizes before it.
std::vector<std::uint32_t> GroupByColour(const Colouring& colouring,
                                         std::vector<std::uint32_t>& set_sizes);
// out.triplets = each set of `ordered` (sizes in out.set_sizes) followed by
// its dummies up to a multiple of out.width; sets out.padding.
void PadSets(std::span<const Triplet> ordered, std::size_t particle_count,
             Schedule& out);

// NvCloth's calculateNumReplays on one set's final layout: per chunk of 32
// from the set's start and per slot, the most triplets on one bank (p & 31).
std::uint64_t SetReplays(std::span<const Triplet> set);
// A floor under SetReplays for every layout of the set: per slot, each of
// the ceil(n / 32) chunks replays at least once and at least as often as it
// holds triplets on any one bank, so summed over the chunks the slot
// replays at least max(chunks, most triplets on one bank) times. A layout
// that reaches it cannot be improved.
std::uint64_t SetReplaysFloor(std::span<const Triplet> set);
// A set's triplets laid out in warps of 32 (out: the same triplets, in
// warp order), aiming at few replays.
using WarpLayout = void(std::span<const Triplet> set, std::span<Triplet> out);
// bank_matched_warp's colouring and warp matching; with `alternative`, each
// set whose layout replays more than 1 % above its SetReplaysFloor is also
// laid out by it, and the layout with fewer replays is kept.
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
struct BfsOptions {
  SetBuilder* builder = nullptr;
  int threads = 1;
  int spread_passes = 0;
};
// bfs_banked_warp's colouring and layout (bfs_banked_warp.cc).
void BfsBankedSchedule(std::span<const Triplet> input,
                       std::size_t particle_count, unsigned width,
                       Schedule& out, const BfsOptions& options);
// Below this many triplets the *_warp_openmp schedulers lay their sets out
// on one thread: the team's start costs more than it saves
// (docs/triplet_schedule.md#threads).
inline constexpr std::size_t kThreadedTriplets = 2048;
// The OpenMP threads a *_warp_openmp scheduler lays `triplets` out on:
// all from kThreadedTriplets on, else 1 (bfs_built_warp_openmp.cc).
int LayoutThreads(std::size_t triplets);
// bfs_built_warp's builder: large sets' full warps built whole
// (bfs_built_warp.cc).
SetBuilder BuildWarpsWhole;
// bfs_walk_warp's builder: BuildWarpsWhole, on sets from 16 warps (not
// 32), with a random walk where greedy and its repair leave a warp's groups
// without a cell (bfs_built_warp.cc).
SetBuilder BuildWarpsWalked;
// round_matched_warp's layout (round_matched_warp.cc).
WarpLayout RoundMatchedLayout;
// transversal_warp's layout: conflict-free warps built whole, leftovers
// into the holes (transversal_warp.cc).
WarpLayout TransversalLayout;

// The implementations, one file each; call them through the tables.
ScheduleFn NvClothSimd;
ScheduleFn NvClothSimdLegacy;
ScheduleFn NvClothWarp;
ScheduleFn NvClothWarpForward;
ScheduleFn StampedSimd;
ScheduleFn BfsBankedWarp;
ScheduleFn BfsBuiltWarp;
ScheduleFn BfsBuiltWarpOpenMp;
ScheduleFn BfsWalkWarp;
ScheduleFn BfsWalkWarpOpenMp;
ScheduleFn BankMatchedWarp;
ScheduleFn RoundMatchedWarp;
ScheduleFn TransversalWarp;

}  // namespace adj::triplet_schedule

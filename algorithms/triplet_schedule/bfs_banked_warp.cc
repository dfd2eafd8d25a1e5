// Ours: colour first, then lay each colour out in warps for the banks.
//
// Colouring: BreadthFirstColouring (greedy smallest free colour, breadth
// first over shared particles), or greedy in input order where that takes
// fewer colours.
//
// Banks: each set of n triplets is cut into ceil(n / 32) warps, all full
// but the last, and its triplets are placed, in colouring order, into the
// warp whose bank replays grow least (NvCloth's cost model: a slot costs 1
// when its bank already holds that slot's maximum), searched among the
// next kWarpWindow open warps, stopping at the first that costs 0. The
// model is the real layout: warp m is positions [32m, 32m + 32) of the set.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kWarp = 32;
constexpr std::uint32_t kBanks = 32;

struct WarpModel {
  std::uint32_t size = 0;
  std::uint32_t capacity = kWarp;
  std::array<std::uint8_t, 3> replays = {1, 1, 1};
  std::array<std::array<std::uint8_t, kBanks>, 3> conflicts = {};

  std::uint32_t Cost(const Triplet& triplet) const {
    std::uint32_t cost = 0;
    for (int k = 0; k < 3; ++k) {
      cost += conflicts[k][triplet[k] % kBanks] == replays[k];
    }
    return cost;
  }
  void Add(const Triplet& triplet) {
    ++size;
    for (int k = 0; k < 3; ++k) {
      const std::uint8_t count = ++conflicts[k][triplet[k] % kBanks];
      replays[k] = std::max(replays[k], count);
    }
  }
};

// How many open warps a triplet may try, from the first open one. On the
// 2-vCPU EPYC, 125k-triplet grids: 4 warps gave replays 2.0-3.1x ideal, 16
// gave 2.0-3.0x at 1.7-2x the time, 64 gave 2.0-2.9x at 3x the time: the
// model's greedy, not the window, is what limits it.
constexpr std::uint32_t kWarpWindow = 16;

// Places set[0..n) into warps, writing them to out in warp order.
void LayOutSet(std::span<const Triplet> set, std::vector<WarpModel>& warps,
               std::vector<std::uint32_t>& warp_of, Triplet* out) {
  const std::uint32_t n = static_cast<std::uint32_t>(set.size());
  const std::uint32_t warp_count = (n + kWarp - 1) / kWarp;
  warps.assign(warp_count, WarpModel{});
  if (warp_count > 0) warps.back().capacity = n - kWarp * (warp_count - 1);
  warp_of.resize(n);
  std::uint32_t first_open = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    while (warps[first_open].size == warps[first_open].capacity) ++first_open;
    std::uint32_t best = kNone;
    std::uint32_t best_cost = 4;
    const std::uint32_t window_end =
        std::min(warp_count, first_open + kWarpWindow);
    for (std::uint32_t w = first_open; w < window_end && best_cost != 0; ++w) {
      if (warps[w].size == warps[w].capacity) continue;
      const std::uint32_t cost = warps[w].Cost(set[i]);
      if (cost < best_cost) {
        best_cost = cost;
        best = w;
      }
    }
    warps[best].Add(set[i]);
    warp_of[i] = best;
  }
  std::vector<std::uint32_t> cursor(warp_count);
  for (std::uint32_t w = 0; w < warp_count; ++w) cursor[w] = w * kWarp;
  for (std::uint32_t i = 0; i < n; ++i) out[cursor[warp_of[i]]++] = set[i];
}

}  // namespace

void BfsBankedWarp(std::span<const Triplet> input, std::size_t particle_count,
                   unsigned width, Schedule& out) {
  StartWarpSchedule(input, particle_count, width, 32, out);
  if (input.empty()) return;
  const triangle_adjacency::Adjacency adjacency =
      TripletAdjacency(input, particle_count);
  Colouring colouring = BreadthFirstColouring(input, adjacency);
  // A regular mesh in its natural order can colour better in that order:
  // the natural alternating-diagonal grids take maxAdj colours in input
  // order, maxAdj + 1 breadth first, and their warps then replay less too
  // (250^2 quads, scratch: 2.97 -> 2.03 x ideal).
  if (adjacency.max_adjacent <= kMaskedMaxAdjacent) {
    Colouring in_order = InputOrderColouring(input, particle_count);
    if (in_order.colours < colouring.colours) colouring = std::move(in_order);
  }
  const std::vector<std::uint32_t> members =
      GroupByColour(colouring, out.set_sizes);

  // Each set, in colouring order, laid out.
  std::vector<Triplet> by_set(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    by_set[i] = input[members[i]];
  }
  out.triplets.resize(members.size());
  std::vector<WarpModel> warps;
  std::vector<std::uint32_t> warp_of;
  std::size_t start = 0;
  for (const std::uint32_t size : out.set_sizes) {
    LayOutSet(std::span(by_set).subspan(start, size), warps, warp_of,
              out.triplets.data() + start);
    start += size;
  }
}

}  // namespace adj::triplet_schedule

// BankMatchedSchedule, the pipeline of bank_matched_warp, round_matched_warp
// and transversal_warp: colour first, remove colours, then match each set's
// triplets to warps bank by bank.
//
// Colouring: BreadthFirstColouring, then the top colour is emptied while it
// can be: each of its triplets moves to a lower colour no neighbour holds,
// or, where exactly one neighbour blocks a lower colour, that neighbour
// moves to a third colour first (a one-step Kempe swap). maxAdj is the
// floor; greedy alone left grids 1-2 colours above it. Then SpreadBanks
// moves triplets to colours where their banks are less crowded (greedy on
// a regular mesh makes colours whose slot-0 particles fall on 8 of the 32
// banks, and no layout of such a set avoids 4-way conflicts).
//
// Warps: each set is sorted by triplet shape (slot-1 and slot-2 banks
// relative to slot 0's) and its slot-0 banks dealt round robin inside each
// shape, so that runs of 32 are conflict-free warps where the banks allow.
// Then a set of n triplets is cut into ceil(n / 32) warps, all full but
// the last (the kernel's warp m is positions [32m, 32m + 32) of the set). A
// warp replays a load once per extra triplet on the busiest bank of that
// slot, so the ideal warp has 32 distinct banks in each of its 3 slots.
// Per slot and bank, a bitset over the set's warps says which warps still
// have that bank free; a triplet goes to the first open warp free in all
// three of its banks (three ANDs over ceil(n / 2048) words), else to the
// open warp where it adds the fewest replays by NvCloth's cost model.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/padding.h"
#include "algorithms/triplet_schedule/recolouring.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Passes of SpreadBanks while the last moved at least 1 % of the
// triplets. A move frees room in other colours for the next pass, which the
// natural alternating grid needs; elsewhere passes after the second move
// almost nothing (docs/triplet_schedule.md#decisions-and-dead-ends,
// kSpreadPasses).
constexpr int kSpreadPasses = 16;

// The warps of one set: bank counts per warp and slot, fill, and per slot
// and bank the bitset of warps where that bank is still unused.
class WarpMatcher {
 public:
  void Reset(std::uint32_t set_size) {
    warps_ = (set_size + kWarp - 1) / kWarp;
    cheapest_cursor_ = 0;
    words_ = (warps_ + 63) / 64;
    counts_.assign(std::size_t{warps_} * 3 * kBanks, 0);
    size_.assign(warps_, 0);
    max_.assign(std::size_t{warps_} * 3, 0);
    capacity_.assign(warps_, kWarp);
    if (warps_ > 0) capacity_.back() = set_size - kWarp * (warps_ - 1);
    free_.assign(std::size_t{3} * kBanks * words_, ~std::uint64_t{0});
    open_.assign(words_, ~std::uint64_t{0});
    if (warps_ % 64 != 0) {
      const std::uint64_t tail = (std::uint64_t{1} << (warps_ % 64)) - 1;
      open_.back() = tail;
    }
  }

  // The warp triplet t joins: the first open warp where all three of its
  // banks are free, else the open warp where it adds the fewest replays.
  std::uint32_t Place(const Triplet& t) {
    const std::uint64_t* f0 = Free(0, t[0] % kBanks);
    const std::uint64_t* f1 = Free(1, t[1] % kBanks);
    const std::uint64_t* f2 = Free(2, t[2] % kBanks);
    std::uint32_t warp = kNone;
    for (std::uint32_t w = 0; w < words_ && warp == kNone; ++w) {
      warp = Lowest(w, open_[w] & f0[w] & f1[w] & f2[w]);
    }
    // Two banks free: one replay more at most, on one slot.
    for (std::uint32_t w = 0; w < words_ && warp == kNone; ++w) {
      warp = Lowest(
          w, open_[w] & ((f0[w] & f1[w]) | (f0[w] & f2[w]) | (f1[w] & f2[w])));
    }
    if (warp == kNone) warp = Cheapest(t);
    Add(warp, t);
    return warp;
  }

 private:
  std::uint64_t* Free(std::size_t slot, std::uint32_t bank) {
    return free_.data() + (slot * kBanks + bank) * words_;
  }
  std::uint8_t& Count(std::uint32_t warp, std::size_t slot,
                      std::uint32_t bank) {
    return counts_[(std::size_t{warp} * 3 + slot) * kBanks + bank];
  }
  // Replays t adds to `warp` (NvCloth's model: a slot costs 1 when its bank
  // already holds that slot's maximum, at least 1), then, to spread what
  // cannot be avoided, the triplets already on t's banks.
  std::uint32_t Cost(std::uint32_t warp, const Triplet& t) {
    std::uint32_t replays = 0;
    std::uint32_t crowding = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint8_t count = Count(warp, k, t[k] % kBanks);
      replays += count >= std::max<std::uint8_t>(max_[warp * 3 + k], 1);
      crowding += count;
    }
    return replays * 256 + crowding;
  }
  static std::uint32_t Lowest(std::uint32_t word, std::uint64_t bits) {
    return bits == 0
               ? kNone
               : word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
  }
  // Searches kCheapestWords words of open warps, from where the last search
  // ended, so that what cannot be placed well spreads over the set.
  std::uint32_t Cheapest(const Triplet& t) {
    std::uint32_t best = kNone;
    std::uint32_t best_cost = std::numeric_limits<std::uint32_t>::max();
    for (std::uint32_t step = 0; step < std::min(words_, kCheapestWords);
         ++step) {
      const std::uint32_t w = cheapest_cursor_;
      cheapest_cursor_ = (cheapest_cursor_ + 1) % words_;
      for (std::uint64_t bits = open_[w]; bits != 0; bits &= bits - 1) {
        const std::uint32_t warp =
            w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
        const std::uint32_t cost = Cost(warp, t);
        if (cost < best_cost) {
          best_cost = cost;
          best = warp;
        }
      }
    }
    if (best == kNone) {  // every searched word full: the first open warp
      for (std::uint32_t w = 0; w < words_ && best == kNone; ++w) {
        best = Lowest(w, open_[w]);
      }
    }
    return best;
  }
  void Add(std::uint32_t warp, const Triplet& t) {
    const std::uint64_t bit = std::uint64_t{1} << (warp % 64);
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t bank = t[k] % kBanks;
      std::uint8_t& count = Count(warp, k, bank);
      ++count;
      max_[warp * 3 + k] = std::max(max_[warp * 3 + k], count);
      Free(k, bank)[warp / 64] &= ~bit;
    }
    if (++size_[warp] == capacity_[warp]) open_[warp / 64] &= ~bit;
  }

  static constexpr std::uint32_t kCheapestWords = 2;
  std::uint32_t cheapest_cursor_ = 0;
  std::uint32_t warps_ = 0;
  std::uint32_t words_ = 0;
  std::vector<std::uint8_t> counts_;
  std::vector<std::uint32_t> size_;
  std::vector<std::uint32_t> capacity_;
  std::vector<std::uint8_t> max_;
  std::vector<std::uint64_t> free_;
  std::vector<std::uint64_t> open_;
};

// A triplet's shape: its slot-1 and slot-2 banks relative to its slot-0
// bank. Triplets of one shape with distinct slot-0 banks have distinct banks
// in every slot, so grouping a set by shape, then by slot-0 bank, hands the
// matcher runs it can place without conflicts (a grid has two shapes).
std::uint32_t ShapeAndBank(const Triplet& t) {
  const std::uint32_t b0 = t[0] % kBanks;
  const std::uint32_t d1 = (t[1] - b0) % kBanks;
  const std::uint32_t d2 = (t[2] - b0) % kBanks;
  return (d1 * kBanks + d2) * kBanks + b0;
}
constexpr std::uint32_t kShapeKeys = kBanks * kBanks * kBanks;

// Below this set size a comparison sort beats clearing kShapeKeys counters.
constexpr std::size_t kCountingSortFrom = 4096;

// `members` sorted by ShapeAndBank, stable.
void SortByShape(std::span<const Triplet> triplets,
                 std::span<const std::uint32_t> members,
                 std::vector<std::uint32_t>& start,
                 std::vector<std::uint64_t>& keys,
                 std::vector<std::uint32_t>& sorted) {
  sorted.resize(members.size());
  if (members.size() < kCountingSortFrom) {
    keys.resize(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      keys[i] = std::uint64_t{ShapeAndBank(triplets[members[i]])} << 32 | i;
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < members.size(); ++i) {
      sorted[i] = members[keys[i] & 0xffffffffu];
    }
    return;
  }
  start.assign(kShapeKeys + 1, 0);
  for (const std::uint32_t t : members) ++start[ShapeAndBank(triplets[t]) + 1];
  for (std::uint32_t key = 0; key < kShapeKeys; ++key) {
    start[key + 1] += start[key];
  }
  for (const std::uint32_t t : members) {
    sorted[start[ShapeAndBank(triplets[t])]++] = t;
  }
}

// Within each shape of `sorted` (sorted by ShapeAndBank), deals the slot-0
// banks round robin: the first triplet of every bank, then the second of
// every bank, ... so that each run of up to 32 has one shape and distinct
// slot-0 banks: a warp without conflicts, whichever banks are crowded.
void DealBanks(std::span<const Triplet> triplets,
               std::vector<std::uint32_t>& sorted,
               std::vector<std::uint32_t>& dealt) {
  dealt.resize(sorted.size());
  std::size_t out = 0;
  for (std::size_t begin = 0; begin < sorted.size();) {
    const std::uint32_t shape = ShapeAndBank(triplets[sorted[begin]]) / kBanks;
    std::array<std::uint32_t, kBanks + 1> bank_start{};
    std::size_t end = begin;
    while (end < sorted.size() &&
           ShapeAndBank(triplets[sorted[end]]) / kBanks == shape) {
      ++bank_start[triplets[sorted[end]][0] % kBanks + 1];
      ++end;
    }
    std::uint32_t longest = 0;
    for (std::uint32_t b = 0; b < kBanks; ++b) {
      longest = std::max(longest, bank_start[b + 1]);
      bank_start[b + 1] += bank_start[b];
    }
    for (std::uint32_t rank = 0; rank < longest; ++rank) {
      for (std::uint32_t b = 0; b < kBanks; ++b) {
        if (bank_start[b] + rank < bank_start[b + 1]) {
          dealt[out++] = sorted[begin + bank_start[b] + rank];
        }
      }
    }
    begin = end;
  }
  sorted.swap(dealt);
}

}  // namespace

void BankMatchedSchedule(std::span<const Triplet> input,
                         std::size_t particle_count, unsigned width,
                         Schedule& out, WarpLayout* alternative) {
  StartWarpSchedule(input, particle_count, width, 32, out);
  if (input.empty()) return;
  const triangle_adjacency::Adjacency adjacency =
      TripletAdjacency(input, particle_count);
  Colouring colouring =
      BreadthFirstColouring(input, adjacency, FanOrder::kRowOrder);
  colouring.colours = RemoveColours(input, adjacency, colouring.colour,
                                    colouring.colours, adjacency.max_adjacent);
  SpreadBanks(input, adjacency, particle_count, colouring.colour,
              colouring.colours, kSpreadPasses);
  const std::vector<std::uint32_t> members =
      GroupByColour(colouring, out.set_sizes);

  // Each set sorted by shape, matched to its warps, written warp by warp.
  out.triplets.resize(members.size());
  WarpMatcher matcher;
  std::vector<std::uint32_t> warp_of;
  std::vector<std::uint32_t> slot;
  std::vector<std::uint32_t> shape_start;
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> sorted;
  std::vector<std::uint32_t> dealt;
  std::vector<Triplet> set;
  std::vector<Triplet> other_layout;
  std::size_t start = 0;
  for (const std::uint32_t size : out.set_sizes) {
    SortByShape(input, std::span(members).subspan(start, size), shape_start,
                keys, sorted);
    DealBanks(input, sorted, dealt);
    matcher.Reset(size);
    warp_of.resize(size);
    for (std::uint32_t i = 0; i < size; ++i) {
      warp_of[i] = matcher.Place(input[sorted[i]]);
    }
    slot.resize((size + kWarp - 1) / kWarp);
    for (std::uint32_t w = 0; w < slot.size(); ++w) slot[w] = w * kWarp;
    const std::span<Triplet> layout(out.triplets.data() + start, size);
    for (std::uint32_t i = 0; i < size; ++i) {
      layout[slot[warp_of[i]]++] = input[sorted[i]];
    }
    // A layout within 1 % of the floor is kept: on natural grids the shape
    // sort lands there (250^2 grid: 1797 replays, floor 1783), and matching
    // those sets again cost 2-8x the schedule time for nothing.
    if (alternative != nullptr &&
        SetReplays(layout) * 100 > SetReplaysFloor(layout) * 101) {
      set.assign(layout.begin(), layout.end());
      other_layout.resize(size);
      alternative(set, other_layout);
      if (SetReplays(other_layout) < SetReplays(layout)) {
        std::copy(other_layout.begin(), other_layout.end(), layout.begin());
      }
    }
    start += size;
  }
}

}  // namespace adj::triplet_schedule

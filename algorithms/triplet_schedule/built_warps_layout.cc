// BuildWarpsWhole and BuildWarpsWalked, the set builders of bfs_built_warp
// and bfs_walk_warp: each large set's full warps built whole instead of
// filled triplet by triplet: fewer bank replays, at more time.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/cell_pool.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

namespace {

// Sets of at least kBuiltWarps warps go to WarpBuilder: smaller ones gain
// little (docs/triplet_schedule.md#decisions-and-dead-ends, kBuiltWarps).
constexpr std::uint32_t kBuiltWarps = 32;
// BuildWarpsWalked takes sets from this many warps: its walk makes the
// building pay on smaller sets. Tuned, and the polishers tried on small
// scenes: see docs/triplet_schedule.md#decisions-and-dead-ends (kWalkedWarps).
constexpr std::uint32_t kWalkedWarps = 16;

// Steps of BuildWarpsWalked's walk per warp that greedy left with holes.
// Tuned: see docs/triplet_schedule.md#decisions-and-dead-ends (kWalkSteps).
constexpr int kWalkSteps = 192;

// A set stops walking after this many walks in a row end short of every
// group they could place (a full warp, where the pool still covers it):
// walks fail late in a set, where the pool has thinned. Tuned: see
// docs/triplet_schedule.md#decisions-and-dead-ends (kFailedWalksToStop).
constexpr int kFailedWalksToStop = 4;

// Builds a large set's full warps whole, each where it can as a
// transversal: 32 triplets whose banks are distinct in every slot, so that
// every load of the warp is conflict-free. A warp replays a load once per
// extra triplet on that slot's busiest bank, so 16 duplicated banks cost
// what one costs, and bfs_banked_warp's triplet-by-triplet greedy, which
// spreads the unavoidable conflicts over nearly every warp, stays far above
// the sets' SetReplaysFloor (docs/triplet_schedule.md#decisions-and-dead-ends).
//
// The set's triplets are pooled by cell (slot-0, slot-1, slot-2 bank:
// CellPool). A warp takes one triplet per slot-0 bank (its "group"), the groups
// with the fewest cells left first, each a cell whose slot-1 and slot-2 banks
// are still free in the warp (a random one of the slot-1 banks that have one).
// A group with none takes a cell whose banks one or two placed groups hold,
// where those can move to free ones (a one-step augmenting path, at most
// kRepairOptions cells tried), else it leaves a hole. Once the full warps
// are built, the pool's leftovers fill the holes and the last, partial
// warp, each into the first of kLeftoverScan open warps where it adds no
// replay by NvCloth's cost model, else the one where it adds fewest.
//
// Only where the cells allow: a set whose first warps already have holes
// (natural grids coloured in input order hold a few cells per bank, and
// alternating ones only half the banks) keeps bfs_banked_warp's layout,
// as do sets of fewer than kBuiltWarps warps (BuildWarpsWhole) or
// kWalkedWarps warps (BuildWarpsWalked).
class WarpBuilder {
 public:
  // Lays `set` out into out[0, set.size()); false, with out untouched,
  // where its first kProbeWarps warps leave more than kProbeHoles holes.
  bool Run(std::span<const Triplet> set, Triplet* out, int walk_steps) {
    set_ = set;
    walk_steps_ = walk_steps;
    const auto n = static_cast<std::uint32_t>(set.size());
    full_ = n / kWarp;
    warp_count_ = (n + kWarp - 1) / kWarp;
    random_.Seed(n);
    failed_walks_ = 0;
    pool_.Fill(set);
    for (std::uint32_t g = 0; g < kBanks; ++g) order_[g] = g;
    members_.assign(std::size_t{warp_count_} * kWarp, 0);
    size_.assign(warp_count_, 0);
    std::uint32_t holes = 0;
    for (std::uint32_t w = 0; w < full_; ++w) {
      BuildWarp(w);
      holes += kWarp - size_[w];
      if (w + 1 == kProbeWarps && holes > kProbeHoles) {
        DrainPool();
        return false;
      }
    }
    PlaceLeftovers();
    for (std::uint32_t w = 0; w < warp_count_; ++w) {
      for (std::uint32_t j = 0; j < size_[w]; ++j) {
        out[w * kWarp + j] = set[members_[w * kWarp + j]];
      }
    }
    return true;
  }

 private:
  static constexpr std::uint8_t kNoGroup = WarpBanks::kNoGroup;
  // The first kProbeWarps warps may leave kProbeHoles holes (5 % of their
  // lanes) before the set goes back to bfs_banked_warp's layout: natural
  // grids coloured in input order leave far more than permuted grids and
  // meshes (docs/triplet_schedule.md#decisions-and-dead-ends, kProbeWarps).
  static constexpr std::uint32_t kProbeWarps = 4;
  static constexpr std::uint32_t kProbeHoles = kProbeWarps * kWarp / 20;
  // Tuned: see docs/triplet_schedule.md#decisions-and-dead-ends
  // (kRepairOptions, kLeftoverScan).
  static constexpr int kRepairOptions = 64;

  static constexpr std::size_t kLeftoverScan = 64;

  // Empties the pool into left_, each cell's triplets highest index first.
  void DrainPool() {
    left_.clear();
    pool_.Drain([&](std::span<const std::uint32_t> cell) {
      left_.insert(left_.end(), cell.rbegin(), cell.rend());
    });
  }

  // Which slot-1 banks give group g a cell whose slot-2 bank is in free2.
  std::uint32_t Slot1Options(std::uint32_t g, std::uint32_t free2) const {
    const std::uint32_t* row = pool_.Slot2Row(g);
    std::uint32_t options = 0;
#if defined(__SSE2__)
    // 4 banks per compare, their signs gathered by movmskps: faster than the
    // scalar loop below (docs/triplet_schedule.md#decisions-and-dead-ends).
    using Words = std::uint32_t __attribute__((vector_size(16)));
    using Floats = float __attribute__((vector_size(16)));
    const Words mask = {free2, free2, free2, free2};
    for (std::uint32_t q = 0; q < kBanks / 4; ++q) {
      Words words;
      std::memcpy(&words, row + 4 * q, sizeof words);
      const auto any = reinterpret_cast<Floats>((words & mask) != 0);
      options |= static_cast<std::uint32_t>(__builtin_ia32_movmskps(any))
                 << 4 * q;
    }
#else
    for (std::uint32_t b1 = 0; b1 < kBanks; ++b1) {
      options |= static_cast<std::uint32_t>((row[b1] & free2) != 0) << b1;
    }
#endif
    return options;
  }
  // A cell of group g with slot-1 bank in free1 and slot-2 bank in free2.
  bool FindCell(std::uint32_t g, std::uint32_t free1, std::uint32_t free2,
                std::uint32_t& b1, std::uint32_t& b2) {
    const std::uint32_t options = Slot1Options(g, free2) & free1;
    if (options == 0) return false;
    b1 = random_.AnyBit(options);
    b2 = static_cast<std::uint32_t>(
        std::countr_zero(pool_.Slot2Banks(g, b1) & free2));
    return true;
  }

  // The warp under construction: per group its banks, per bank its group.
  void Assign(std::uint32_t g, std::uint32_t b1, std::uint32_t b2) {
    banks_.Hold(g, b1, b2);
    placed_ |= 1u << g;
  }
  void Release(std::uint32_t g) {
    banks_.Release(g);
    placed_ &= ~(1u << g);
  }
  // Group g found no free cell: takes one whose banks groups h1 (slot 1)
  // and h2 (slot 2) hold, where they find free cells without them.
  bool Repair(std::uint32_t g) {
    int budget = kRepairOptions;
    const std::uint32_t rotate = random_() % kBanks;
    for (std::uint32_t banks = std::rotr(pool_.Slot1Banks(g), rotate);
         banks != 0; banks &= banks - 1) {
      const std::uint32_t b1 =
          (static_cast<std::uint32_t>(std::countr_zero(banks)) + rotate) %
          kBanks;
      for (std::uint32_t m = pool_.Slot2Banks(g, b1); m != 0; m &= m - 1) {
        if (--budget < 0) return false;
        const auto b2 = static_cast<std::uint32_t>(std::countr_zero(m));
        const std::uint32_t h1 = banks_.owner1[b1];
        const std::uint32_t h2 = banks_.owner2[b2];
        std::uint32_t free1 = banks_.free1;
        std::uint32_t free2 = banks_.free2;
        for (const std::uint32_t h : {h1, h2}) {
          if (h == kNoGroup) continue;
          free1 |= 1u << banks_.bank1[h];
          free2 |= 1u << banks_.bank2[h];
        }
        free1 &= ~(1u << b1);
        free2 &= ~(1u << b2);
        std::uint32_t c1 = 0, c2 = 0, d1 = 0, d2 = 0;
        if (h1 == h2 || h1 == kNoGroup || h2 == kNoGroup) {
          const std::uint32_t h = h1 == kNoGroup ? h2 : h1;
          if (!FindCell(h, free1, free2, c1, c2)) continue;
          Release(h);
          Assign(g, b1, b2);
          Assign(h, c1, c2);
          return true;
        }
        if (FindCell(h1, free1, free2, c1, c2) &&
            FindCell(h2, free1 & ~(1u << c1), free2 & ~(1u << c2), d1, d2)) {
          Release(h1);
          Release(h2);
          Assign(g, b1, b2);
          Assign(h1, c1, c2);
          Assign(h2, d1, d2);
          return true;
        }
      }
    }
    return false;
  }
  // A bank no cell of the pool has cannot be held: the most groups a warp
  // can place is the fewest banks left in any slot.
  std::uint32_t Coverable(std::uint32_t& groups) const {
    groups = 0;
    std::uint32_t slot1 = 0, slot2 = 0;
    for (std::uint32_t g = 0; g < kBanks; ++g) {
      if (pool_.Cells(g) == 0) continue;
      groups |= 1u << g;
      slot1 |= pool_.Slot1Banks(g);
      for (std::uint32_t m = pool_.Slot1Banks(g); m != 0; m &= m - 1) {
        slot2 |= pool_.Slot2Banks(
            g, static_cast<std::uint32_t>(std::countr_zero(m)));
      }
    }
    return static_cast<std::uint32_t>(std::min(
        {std::popcount(groups), std::popcount(slot1), std::popcount(slot2)}));
  }
  // Where greedy and Repair left groups without a cell: a random walk over
  // the warp's cells, WalkSAT's for 3-D matching, of at most walk_steps_
  // steps. A random unplaced group takes a cell whose banks are free, else
  // one whose banks one placed group holds, evicting it (one whose evicted
  // group could take a free cell at once where there is one; not undoing
  // the last step where there is another), else any of its cells, evicting
  // two; the warp keeps the most groups placed on the way. Repair is the
  // first step searched exhaustively; the walk goes deeper at random. A
  // walk that ends short of every group it could place counts towards
  // kFailedWalksToStop.
  // What the walk gains, and variants of it that did not pay: see
  // docs/triplet_schedule.md#decisions-and-dead-ends (kWalkSteps).
  void Walk() {
    std::uint32_t groups = 0;
    const auto limit = static_cast<int>(Coverable(groups));
    WarpBanks best = banks_;
    std::uint32_t best_placed = placed_;
    std::uint32_t last = kNoGroup;
    std::array<std::uint16_t, 2 * kBanks> good_cells{}, any_cells{};
    for (int step = 0; step < walk_steps_ && std::popcount(best_placed) < limit;
         ++step) {
      const std::uint32_t g = random_.AnyBit(groups & ~placed_);
      std::uint32_t b1 = 0, b2 = 0;
      if (FindCell(g, banks_.free1, banks_.free2, b1, b2)) {
        Assign(g, b1, b2);
      } else {
        // The banks whose eviction would undo the last step.
        std::uint32_t tabu1 = 0, tabu2 = 0;
        if (last != kNoGroup && (placed_ >> last & 1) != 0) {
          tabu1 = 1u << banks_.bank1[last];
          tabu2 = 1u << banks_.bank2[last];
        }
        std::uint32_t good = 0, any = 0;
        const auto offer = [&](std::uint32_t c1, std::uint32_t c2,
                               bool evicted_fits) {
          const auto cell = static_cast<std::uint16_t>(c1 << 8 | c2);
          any_cells[any++] = cell;
          if (evicted_fits) good_cells[good++] = cell;
        };
        // Slot-1 bank free (so every slot-2 bank of its cells is held).
        for (std::uint32_t m = pool_.Slot1Banks(g) & banks_.free1; m != 0;
             m &= m - 1) {
          const auto c1 = static_cast<std::uint32_t>(std::countr_zero(m));
          const std::uint32_t options = pool_.Slot2Banks(g, c1) & ~tabu2;
          if (options == 0) continue;
          const std::uint32_t c2 = random_.AnyBit(options);
          const std::uint32_t h = banks_.owner2[c2];
          const std::uint32_t free1 =
              (banks_.free1 | 1u << banks_.bank1[h]) & ~(1u << c1);
          offer(c1, c2, (Slot1Options(h, banks_.free2) & free1) != 0);
        }
        // Slot-1 bank held, a slot-2 bank free.
        for (std::uint32_t m =
                 Slot1Options(g, banks_.free2) & ~banks_.free1 & ~tabu1;
             m != 0; m &= m - 1) {
          const auto c1 = static_cast<std::uint32_t>(std::countr_zero(m));
          const std::uint32_t c2 =
              random_.AnyBit(pool_.Slot2Banks(g, c1) & banks_.free2);
          const std::uint32_t h = banks_.owner1[c1];
          const std::uint32_t free2 =
              (banks_.free2 | 1u << banks_.bank2[h]) & ~(1u << c2);
          offer(c1, c2, (Slot1Options(h, free2) & banks_.free1) != 0);
        }
        if (any == 0) {
          b1 = random_.AnyBit(pool_.Slot1Banks(g));
          b2 = random_.AnyBit(pool_.Slot2Banks(g, b1));
        } else {
          const std::uint32_t cell = good > 0 ? good_cells[random_() % good]
                                              : any_cells[random_() % any];
          b1 = cell >> 8;
          b2 = cell & 0xff;
        }
        for (const std::uint8_t h : {banks_.owner1[b1], banks_.owner2[b2]}) {
          if (h != kNoGroup) Release(h);
        }
        Assign(g, b1, b2);
      }
      last = g;
      if (std::popcount(placed_) > std::popcount(best_placed)) {
        best = banks_;
        best_placed = placed_;
      }
    }
    banks_ = best;
    placed_ = best_placed;
    failed_walks_ = std::popcount(best_placed) >= limit ? 0 : failed_walks_ + 1;
  }
  void BuildWarp(std::uint32_t w) {
    banks_.Reset();
    placed_ = 0;
    // Fewest cells first, ties by bank: an insertion sort of the last
    // warp's order, which the warp's 32 takes barely change.
    for (std::uint32_t i = 0; i < kBanks; ++i) {
      const std::uint32_t g = order_[i] & 0xff;
      const std::uint32_t key = pool_.Cells(g) << 8 | g;
      std::uint32_t j = i;
      for (; j > 0 && order_[j - 1] > key; --j) order_[j] = order_[j - 1];
      order_[j] = key;
    }
    for (const std::uint32_t key : order_) {
      if (key >> 8 == 0) continue;  // no cell left in this group
      const std::uint32_t g = key & 0xff;
      std::uint32_t b1 = 0, b2 = 0;
      if (FindCell(g, banks_.free1, banks_.free2, b1, b2)) {
        Assign(g, b1, b2);
      } else {
        Repair(g);
      }
    }
    if (walk_steps_ > 0 && failed_walks_ < kFailedWalksToStop &&
        std::popcount(placed_) < static_cast<int>(kBanks)) {
      Walk();
    }
    for (std::uint32_t m = placed_; m != 0; m &= m - 1) {
      const auto g = static_cast<std::uint32_t>(std::countr_zero(m));
      members_[w * kWarp + size_[w]++] =
          pool_.Take(g, banks_.bank1[g], banks_.bank2[g]);
    }
  }

  void PlaceLeftovers() {
    DrainPool();
    if (left_.empty()) return;
    // Shuffled, so that one cell's leftovers do not queue for one warp.
    for (std::size_t i = left_.size(); i > 1; --i) {
      std::swap(left_[i - 1], left_[random_() % i]);
    }
    const std::uint32_t partial =
        static_cast<std::uint32_t>(set_.size()) - full_ * kWarp;
    auto capacity = [&](std::uint32_t w) {
      return w < full_ ? kWarp : partial;
    };
    open_.clear();
    for (std::uint32_t w = 0; w < warp_count_; ++w) {
      if (size_[w] < capacity(w)) open_.push_back(w);
    }
    counts_.assign(open_.size() * 3 * kBanks, 0);
    most_.assign(open_.size() * 3, 1);
    // Each open warp keeps the row of counts_ its first index in open_
    // gave it (open_ is reordered as warps fill).
    slot_of_.resize(warp_count_);
    for (std::uint32_t o = 0; o < open_.size(); ++o) {
      const std::uint32_t w = open_[o];
      slot_of_[w] = o;
      for (std::uint32_t j = 0; j < size_[w]; ++j) {
        Count(o, set_[members_[w * kWarp + j]]);
      }
    }
    std::size_t cursor = 0;
    for (const std::uint32_t i : left_) {
      const Triplet& t = set_[i];
      std::size_t best = 0;
      std::uint32_t best_cost = ~0u;
      const std::size_t tries = std::min(open_.size(), kLeftoverScan);
      for (std::size_t j = 0; j < tries; ++j) {
        const std::size_t o = (cursor + j) % open_.size();
        const std::uint32_t slot = slot_of_[open_[o]];
        std::uint32_t replays = 0;
        for (int k = 0; k < 3; ++k) {
          replays += counts_[(slot * 3 + k) * kBanks + t[k] % kBanks] >=
                     most_[slot * 3 + k];
        }
        // The emptier warp on ties: holes spread over warps cost less
        // than one warp's holes filled with conflicts.
        const std::uint32_t cost = replays * 64 + size_[open_[o]];
        if (cost < best_cost) {
          best_cost = cost;
          best = o;
          if (replays == 0) break;
        }
      }
      const std::uint32_t w = open_[best];
      members_[w * kWarp + size_[w]++] = i;
      Count(slot_of_[w], t);
      cursor = best;
      if (size_[w] == capacity(w)) {
        open_[best] = open_.back();
        open_.pop_back();
      }
    }
  }
  void Count(std::uint32_t slot, const Triplet& t) {
    for (int k = 0; k < 3; ++k) {
      std::uint8_t& count = counts_[(slot * 3 + k) * kBanks + t[k] % kBanks];
      ++count;
      most_[slot * 3 + k] = std::max(most_[slot * 3 + k], count);
    }
  }

  std::span<const Triplet> set_;
  std::uint32_t full_ = 0;
  std::uint32_t warp_count_ = 0;
  SetRandom random_;
  CellPool pool_;
  std::array<std::uint32_t, kBanks> order_{};  // cells left << 8 | g
  WarpBanks banks_;
  std::uint32_t placed_ = 0;
  int walk_steps_ = 0;
  int failed_walks_ = 0;                // in a row, in this set
  std::vector<std::uint32_t> members_;  // [warp][lane]: set indices
  std::vector<std::uint32_t> size_;     // [warp]
  std::vector<std::uint32_t> left_;
  std::vector<std::uint32_t> open_;
  std::vector<std::uint32_t> slot_of_;
  std::vector<std::uint8_t> counts_;  // [open slot][slot k][bank]
  std::vector<std::uint8_t> most_;    // [open slot][slot k], at least 1
};

// Both builders share one builder per thread: its pool and warp tables
// are sized by the largest set it has laid out.
bool BuildWarps(std::span<const Triplet> set, Triplet* out,
                std::uint32_t min_warps, int walk_steps) {
  if (set.size() < min_warps * kWarp) return false;
  thread_local WarpBuilder builder;
  return builder.Run(set, out, walk_steps);
}

}  // namespace

bool BuildWarpsWhole(std::span<const Triplet> set, Triplet* out) {
  return BuildWarps(set, out, kBuiltWarps, 0);
}

bool BuildWarpsWalked(std::span<const Triplet> set, Triplet* out) {
  return BuildWarps(set, out, kWalkedWarps, kWalkSteps);
}

}  // namespace adj::triplet_schedule

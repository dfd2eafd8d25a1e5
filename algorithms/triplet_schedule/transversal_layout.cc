// TransversalLayout, transversal_warp's second layout: each set that
// bank_matched_warp's matcher left more than 1 % above SetReplaysFloor is
// laid out again, warp by warp, as conflict-free warps ("transversals": 32
// triplets whose banks are all distinct in each of the 3 slots), and the
// better of the two layouts is kept.
//
// Why whole warps: a warp replays a load once per extra triplet on the
// busiest bank of that slot, so 16 duplicated banks in one warp cost what
// one costs. The matchers (bank_matched_warp, round_matched_warp) place
// triplet by triplet where each adds least, which spreads the unavoidable
// conflicts over nearly every warp, far above the sets' floor. Here each
// full warp is built to have none, and what
// cannot be built so is left to a few warps that take the leftovers.
//
// A warp is built one slot-0 bank (a "group") at a time, the group with the
// fewest remaining (slot-1, slot-2) bank pairs first. A group takes a
// triplet from the pool whose slot-1 and slot-2 banks are still free in the
// warp; where none is, a depth-limited search takes one whose banks are
// held by other groups and re-places those (an augmenting path over the
// two bank resources), within a budget of tried options per group. Groups
// that still find nothing leave a hole; once every full warp is built the
// leftovers fill the holes (and the set's last, partial warp) where they
// add the fewest replays by NvCloth's cost model.
// Small sets hold a few triplets per bank, too few to build warps without
// conflicts (replays: docs/triplet_schedule.md#decisions-and-dead-ends).
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/cell_pool.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {
namespace {

constexpr std::uint8_t kNoGroup = WarpBanks::kNoGroup;
// How deep a group may displace others, and how many options one group's
// search may try. Tuned: see docs/triplet_schedule.md#decisions-and-dead-ends
// (kDisplaceDepth).
constexpr int kDisplaceDepth = 3;
constexpr int kOptionBudget = 200;

std::uint32_t Bank(const Triplet& t, int slot) { return t[slot] % kBanks; }

class TransversalBuilder {
 public:
  void Run(std::span<const Triplet> set, std::span<Triplet> out) {
    set_ = set;
    const auto n = static_cast<std::uint32_t>(set.size());
    const std::uint32_t full = n / kWarp;
    const std::uint32_t warps = (n + kWarp - 1) / kWarp;
    pool_.Fill(set);
    random_.Seed(n);
    members_.assign(warps, {});
    for (std::uint32_t w = 0; w < full; ++w) BuildWarp(members_[w]);
    PlaceLeftovers(full, n - full * kWarp);
    std::size_t next = 0;
    for (const std::vector<std::uint32_t>& warp : members_) {
      for (const std::uint32_t i : warp) out[next++] = set[i];
    }
  }

 private:
  // The warp under construction: per group g (its slot-0 bank) the slot-1
  // and slot-2 banks it took, and per bank the group holding it.
  struct Undo {
    std::uint8_t group, bank1, bank2, had;
  };
  void Assign(std::uint32_t g, std::uint32_t b1, std::uint32_t b2) {
    undo_.push_back({static_cast<std::uint8_t>(g), banks_.bank1[g],
                     banks_.bank2[g], has_[g]});
    if (has_[g]) banks_.Release(g);
    banks_.Hold(g, b1, b2);
    has_[g] = 1;
  }
  void Unassign(std::uint32_t g) {
    undo_.push_back({static_cast<std::uint8_t>(g), banks_.bank1[g],
                     banks_.bank2[g], has_[g]});
    banks_.Release(g);
    has_[g] = 0;
  }
  void Rollback(std::size_t mark) {
    while (undo_.size() > mark) {
      const Undo u = undo_.back();
      undo_.pop_back();
      if (has_[u.group]) banks_.Release(u.group);
      has_[u.group] = u.had;
      if (u.had) {
        banks_.Hold(u.group, u.bank1, u.bank2);
      } else {
        banks_.bank1[u.group] = u.bank1;
        banks_.bank2[u.group] = u.bank2;
      }
    }
  }

  // Gives group g a pool triplet whose banks are free, or one whose banks
  // others hold, re-placing them (depth-limited); false leaves everything
  // as it was.
  bool Place(std::uint32_t g, int depth) {
    const std::uint32_t rotate = random_() % kBanks;
    for (std::uint32_t s = 0; s < kBanks; ++s) {
      const std::uint32_t b1 = (s + rotate) % kBanks;
      if ((banks_.free1 >> b1 & 1) == 0) continue;
      const std::uint32_t b2s = pool_.Slot2Banks(g, b1) & banks_.free2;
      if (b2s != 0) {
        Assign(g, b1, static_cast<std::uint32_t>(std::countr_zero(b2s)));
        return true;
      }
    }
    if (depth == kDisplaceDepth) return false;
    for (std::uint32_t s = 0; s < kBanks; ++s) {
      const std::uint32_t b1 = (s + rotate) % kBanks;
      for (std::uint32_t b2s = pool_.Slot2Banks(g, b1); b2s != 0;
           b2s &= b2s - 1) {
        if (--budget_ < 0) return false;
        const auto b2 = static_cast<std::uint32_t>(std::countr_zero(b2s));
        const std::uint8_t g1 = banks_.owner1[b1];
        const std::uint8_t g2 = banks_.owner2[b2];
        if ((g1 != kNoGroup && locked_[g1]) ||
            (g2 != kNoGroup && locked_[g2])) {
          continue;
        }
        const std::size_t mark = undo_.size();
        if (g1 != kNoGroup) Unassign(g1);
        if (g2 != kNoGroup && g2 != g1) Unassign(g2);
        Assign(g, b1, b2);
        locked_[g] = 1;
        const bool placed =
            (g1 == kNoGroup || Place(g1, depth + 1)) &&
            (g2 == kNoGroup || g2 == g1 || Place(g2, depth + 1));
        locked_[g] = 0;
        if (placed) return true;
        Rollback(mark);
      }
    }
    return false;
  }

  void BuildWarp(std::vector<std::uint32_t>& warp) {
    banks_.Reset();
    has_.fill(0);
    locked_.fill(0);
    // Groups with the fewest pool options first.
    std::array<std::uint32_t, kBanks> order;
    for (std::uint32_t g = 0; g < kBanks; ++g) {
      order[g] = pool_.Cells(g) << 8 | g;
    }
    std::sort(order.begin(), order.end());
    for (const std::uint32_t key : order) {
      if (key >> 8 == 0) continue;  // no triplet left on this slot-0 bank
      const std::uint32_t g = key & 0xff;
      budget_ = kOptionBudget;
      locked_[g] = 1;
      Place(g, 0);
      locked_[g] = 0;
      undo_.clear();
    }
    for (std::uint32_t g = 0; g < kBanks; ++g) {
      if (has_[g])
        warp.push_back(pool_.Take(g, banks_.bank1[g], banks_.bank2[g]));
    }
  }

  // The pool's remainder into the holes of the full warps and the partial
  // last warp (`partial` triplets), each where NvCloth's model adds the
  // fewest replays, the emptier warp on ties.
  void PlaceLeftovers(std::uint32_t full, std::uint32_t partial) {
    std::vector<std::uint32_t> left;
    pool_.Drain([&](std::span<const std::uint32_t> cell) {
      left.insert(left.end(), cell.begin(), cell.end());
    });
    if (left.empty()) return;
    // Interleave the cells so that one bank's leftovers do not queue up.
    for (std::size_t i = left.size(); i > 1; --i) {
      std::swap(left[i - 1], left[random_() % i]);
    }
    const auto warps = static_cast<std::uint32_t>(members_.size());
    counts_.assign(std::size_t{warps} * 3 * kBanks, 0);
    most_.assign(std::size_t{warps} * 3, 0);
    std::vector<std::uint32_t> open;
    for (std::uint32_t w = 0; w < warps; ++w) {
      const std::uint32_t capacity = w < full ? kWarp : partial;
      if (members_[w].size() < capacity) open.push_back(w);
      for (const std::uint32_t i : members_[w]) Count(w, set_[i]);
    }
    for (const std::uint32_t i : left) {
      const Triplet& t = set_[i];
      std::size_t best = 0;
      std::uint32_t best_cost = std::numeric_limits<std::uint32_t>::max();
      for (std::size_t o = 0; o < open.size(); ++o) {
        const std::uint32_t w = open[o];
        std::uint32_t replays = 0;
        for (int k = 0; k < 3; ++k) {
          replays += counts_[(w * 3 + k) * kBanks + Bank(t, k)] >=
                     std::max<std::uint8_t>(most_[w * 3 + k], 1);
        }
        const auto cost =
            replays * 64 + static_cast<std::uint32_t>(members_[w].size());
        if (cost < best_cost) {
          best_cost = cost;
          best = o;
        }
      }
      const std::uint32_t w = open[best];
      members_[w].push_back(i);
      Count(w, t);
      const std::uint32_t capacity = w < full ? kWarp : partial;
      if (members_[w].size() == capacity) {
        open[best] = open.back();
        open.pop_back();
      }
    }
  }
  void Count(std::uint32_t w, const Triplet& t) {
    for (int k = 0; k < 3; ++k) {
      std::uint8_t& count = counts_[(w * 3 + k) * kBanks + Bank(t, k)];
      ++count;
      most_[w * 3 + k] = std::max(most_[w * 3 + k], count);
    }
  }

  std::span<const Triplet> set_;
  CellPool pool_;
  SetRandom random_;
  WarpBanks banks_;
  std::array<std::uint8_t, kBanks> has_{};
  std::array<std::uint8_t, kBanks> locked_{};
  std::vector<Undo> undo_;
  int budget_ = 0;
  std::vector<std::vector<std::uint32_t>> members_;  // per warp, set indices
  std::vector<std::uint8_t> counts_;                 // [warp][slot][bank]
  std::vector<std::uint8_t> most_;                   // [warp][slot]
};

}  // namespace

void TransversalLayout(std::span<const Triplet> set, std::span<Triplet> out) {
  thread_local TransversalBuilder builder;
  builder.Run(set, out);
}

}  // namespace adj::triplet_schedule

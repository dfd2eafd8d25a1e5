// RoundMatchedLayout, round_matched_warp's second layout: each set that
// bank_matched_warp's matcher left more than 1 % above SetReplaysFloor (no
// layout of the set can do better) is laid out again, round by round, and
// the better of the two layouts is kept.
//
// A round takes the set's triplets whose slot-0 particle falls on one bank
// and gives each a different warp that has no triplet on that bank yet, so
// slot 0 stays conflict-free while the banks are balanced. Inside a round
// the triplets are matched to warps as a bipartite matching: a triplet may
// join a warp where its slot-1 and slot-2 banks cost nothing (a bank below
// that slot's current maximum in the warp: empty, or any bank once the
// slot already replays), found by per-bank bitsets over the warps, and
// augmenting paths of depth 2 move an earlier triplet of the round to make
// room. What stays unmatched joins the open warp where NvCloth's cost model
// adds the fewest replays. The largest bank classes go first, while every
// warp is still open to them.
// On natural grids the shape-sorted matcher is already at the floor, so
// those sets are skipped. Replays and time against bank_matched_warp: see
// docs/triplet_schedule.md#decisions-and-dead-ends.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/layouts.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
// Augmenting paths longer than this cost more time than they save replays
// (docs/triplet_schedule.md#decisions-and-dead-ends, kAugmentDepth).
constexpr int kAugmentDepth = 2;
// Open warps searched for an unmatched triplet's cheapest place.
constexpr std::uint32_t kCheapestSearch = 128;

std::uint32_t BankOf(const Triplet& t, int slot) { return t[slot] % kBanks; }

class RoundMatcher {
 public:
  void Run(std::span<const Triplet> set, std::span<Triplet> out) {
    set_ = set;
    Reset(static_cast<std::uint32_t>(set.size()));
    // The set's triplets by slot-0 bank, largest class first.
    std::array<std::vector<std::uint32_t>, kBanks> classes;
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      classes[BankOf(set[i], 0)].push_back(i);
    }
    std::array<std::uint32_t, kBanks> order;
    for (std::uint32_t b = 0; b < kBanks; ++b) order[b] = b;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) {
                       return classes[a].size() > classes[b].size();
                     });
    for (const std::uint32_t bank : order) {
      if (!classes[bank].empty()) MatchRound(bank, classes[bank]);
    }
    std::vector<std::uint32_t> cursor(warps_);
    std::uint32_t position = 0;
    for (std::uint32_t w = 0; w < warps_; ++w) {
      cursor[w] = position;
      position += capacity_[w];
    }
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      out[cursor[warp_of_[i]]++] = set[i];
    }
  }

 private:
  void Reset(std::uint32_t size) {
    warps_ = (size + kWarp - 1) / kWarp;
    words_ = (warps_ + 63) / 64;
    capacity_.assign(warps_, kWarp);
    if (warps_ > 0) capacity_.back() = size - kWarp * (warps_ - 1);
    fill_.assign(warps_, 0);
    counts_.assign(std::size_t{warps_} * 3 * kBanks, 0);
    max_.assign(std::size_t{warps_} * 3, 0);
    free_.assign(std::size_t{2} * kBanks * words_, ~std::uint64_t{0});
    open_.assign(words_, 0);
    owner_.assign(warps_, kNone);
    visited_.assign(warps_, 0);
    stamp_ = 0;
    warp_of_.assign(size, kNone);
  }

  std::uint8_t& Count(std::uint32_t warp, int slot, std::uint32_t bank) {
    return counts_[(std::size_t{warp} * 3 + slot) * kBanks + bank];
  }
  // Warps where slot 1 or 2 (slot - 1 here) may take `bank` for free.
  std::uint64_t* Free(int slot, std::uint32_t bank) {
    return free_.data() + ((slot - 1) * kBanks + bank) * words_;
  }
  // What a slot of `warp` can take without a replay: below its maximum,
  // or an empty bank while the maximum is at most 1.
  bool Costless(std::uint32_t warp, int slot, std::uint32_t bank) {
    return Count(warp, slot, bank) <
           std::max<std::uint8_t>(max_[warp * 3 + slot], 1);
  }

  void Add(std::uint32_t warp, std::uint32_t triplet) {
    const std::uint64_t bit = std::uint64_t{1} << (warp % 64);
    for (int slot = 0; slot < 3; ++slot) {
      const std::uint32_t bank = BankOf(set_[triplet], slot);
      std::uint8_t& count = Count(warp, slot, bank);
      ++count;
      std::uint8_t& most = max_[warp * 3 + slot];
      if (count <= most) continue;
      most = count;
      if (slot == 0) continue;
      // The maximum rose: every bank below it is free again.
      for (std::uint32_t b = 0; b < kBanks; ++b) {
        if (Costless(warp, slot, b)) {
          Free(slot, b)[warp / 64] |= bit;
        } else {
          Free(slot, b)[warp / 64] &= ~bit;
        }
      }
    }
    for (int slot = 1; slot < 3; ++slot) {
      const std::uint32_t bank = BankOf(set_[triplet], slot);
      if (!Costless(warp, slot, bank)) Free(slot, bank)[warp / 64] &= ~bit;
    }
    ++fill_[warp];
    warp_of_[triplet] = warp;
  }

  // Replays `triplet` would add to `warp`, by NvCloth's cost model.
  std::uint32_t Cost(std::uint32_t warp, std::uint32_t triplet) {
    std::uint32_t replays = 0;
    for (int slot = 0; slot < 3; ++slot) {
      replays += !Costless(warp, slot, BankOf(set_[triplet], slot));
    }
    return replays;
  }

  // Kuhn's augmenting path from round member `i` (an index into round_).
  bool Augment(std::uint32_t i, int depth) {
    const Triplet& t = set_[round_[i]];
    const std::uint64_t* free1 = Free(1, BankOf(t, 1));
    const std::uint64_t* free2 = Free(2, BankOf(t, 2));
    for (std::uint32_t w = 0; w < words_; ++w) {
      for (std::uint64_t bits = open_[w] & free1[w] & free2[w]; bits != 0;
           bits &= bits - 1) {
        const std::uint32_t warp =
            w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
        if (visited_[warp] == stamp_) continue;
        visited_[warp] = stamp_;
        if (owner_[warp] == kNone ||
            (depth < kAugmentDepth && Augment(owner_[warp], depth + 1))) {
          owner_[warp] = i;
          matched_[i] = warp;
          return true;
        }
      }
    }
    return false;
  }

  void MatchRound(std::uint32_t bank, const std::vector<std::uint32_t>& round) {
    round_ = round;
    // Open: warps with room whose slot 0 takes `bank` for free; when none
    // (a bank class larger than the warps), every warp with room.
    bool any = false;
    for (std::uint32_t w = 0; w < words_; ++w) open_[w] = 0;
    for (std::uint32_t warp = 0; warp < warps_; ++warp) {
      if (fill_[warp] < capacity_[warp] && Costless(warp, 0, bank)) {
        open_[warp / 64] |= std::uint64_t{1} << (warp % 64);
        any = true;
      }
    }
    if (!any) {
      for (std::uint32_t warp = 0; warp < warps_; ++warp) {
        if (fill_[warp] < capacity_[warp]) {
          open_[warp / 64] |= std::uint64_t{1} << (warp % 64);
        }
      }
    }
    std::fill(owner_.begin(), owner_.end(), kNone);
    matched_.assign(round_.size(), kNone);
    // Warps a failed search visited stay marked until a search succeeds:
    // the matching has not changed, so they lead nowhere for the next one
    // either (a failed search used to visit every reachable warp anew).
    ++stamp_;
    for (std::uint32_t i = 0; i < round_.size(); ++i) {
      if (Augment(i, 0)) ++stamp_;
    }
    for (std::uint32_t i = 0; i < round_.size(); ++i) {
      if (matched_[i] == kNone) continue;
      Add(matched_[i], round_[i]);
      open_[matched_[i] / 64] &= ~(std::uint64_t{1} << (matched_[i] % 64));
    }
    for (std::uint32_t i = 0; i < round_.size(); ++i) {
      if (matched_[i] != kNone) continue;
      const std::uint32_t warp = Cheapest(round_[i]);
      Add(warp, round_[i]);
      open_[warp / 64] &= ~(std::uint64_t{1} << (warp % 64));
    }
  }

  // Where an unmatched triplet goes: an open warp where it costs nothing,
  // else one where it costs one replay (slot 0 is costless in every open
  // warp, so one of slots 1-2 is), found with the bitsets from a cursor
  // that moves on so that leftovers spread over the set; else the open
  // warp (any warp with room when none is open) with the fewest added
  // replays, the emptier on ties, among kCheapestSearch.
  std::uint32_t Cheapest(std::uint32_t triplet) {
    const Triplet& t = set_[triplet];
    const std::uint64_t* free1 = Free(1, BankOf(t, 1));
    const std::uint64_t* free2 = Free(2, BankOf(t, 2));
    for (int cost = 0; cost < 2; ++cost) {
      for (std::uint32_t step = 0; step < words_; ++step) {
        const std::uint32_t w = (cursor_ + step) % words_;
        const std::uint64_t bits =
            open_[w] & (cost == 0 ? free1[w] & free2[w] : free1[w] | free2[w]);
        if (bits != 0) {
          cursor_ = (w + 1) % words_;
          return w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
        }
      }
    }
    std::uint32_t best = kNone;
    std::uint64_t best_cost = std::numeric_limits<std::uint64_t>::max();
    for (int pass = 0; pass < 2 && best == kNone; ++pass) {
      for (std::uint32_t warp = 0; warp < warps_; ++warp) {
        if (fill_[warp] >= capacity_[warp]) continue;
        if (pass == 0 && (open_[warp / 64] >> (warp % 64) & 1) == 0) continue;
        const std::uint64_t cost =
            std::uint64_t{Cost(warp, triplet)} * 64 + fill_[warp];
        if (cost < best_cost) {
          best_cost = cost;
          best = warp;
        }
        if (warp >= kCheapestSearch && best != kNone) break;
      }
    }
    return best;
  }

  std::span<const Triplet> set_;
  std::uint32_t warps_ = 0;
  std::uint32_t words_ = 0;
  std::uint32_t cursor_ = 0;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> capacity_;
  std::vector<std::uint32_t> fill_;
  std::vector<std::uint8_t> counts_;  // [warp][slot][bank]
  std::vector<std::uint8_t> max_;     // [warp][slot]
  std::vector<std::uint64_t> free_;   // [slot 1-2][bank][warp word]
  std::vector<std::uint64_t> open_;   // warps the round may still take
  std::vector<std::uint32_t> owner_;  // warp -> round member, this round
  std::vector<std::uint32_t> visited_;
  std::vector<std::uint32_t> round_;
  std::vector<std::uint32_t> matched_;  // round member -> warp
  std::vector<std::uint32_t> warp_of_;  // set member -> warp
};

}  // namespace

void RoundMatchedLayout(std::span<const Triplet> set, std::span<Triplet> out) {
  thread_local RoundMatcher matcher;
  matcher.Run(set, out);
}

}  // namespace adj::triplet_schedule

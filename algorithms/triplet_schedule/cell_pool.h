#pragma once

// The pool both warp builders (bfs_built_warp's WarpBuilder and
// transversal_warp's TransversalBuilder) draw from: one set's triplets
// sorted by cell, the cell being a triplet's three banks (slot-0, slot-1,
// slot-2; bank = particle % 32), with per (slot-0, slot-1) bank pair a mask
// of the slot-2 banks whose cell still holds a triplet. A warp builder gives
// each slot-0 bank (its "group") one cell whose other two banks are still
// free in the warp, so these masks are what its searches read.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

class CellPool {
 public:
  static constexpr std::uint32_t kCells = kBanks * kBanks * kBanks;

  CellPool() : cell_end_(kCells), cell_left_(kCells, 0) {}

  static std::uint32_t CellOf(const Triplet& t) {
    return ((t[0] % kBanks) * kBanks + t[1] % kBanks) * kBanks + t[2] % kBanks;
  }

  // Pools `set` (its indices). The pool must be empty: every triplet taken
  // or drained. A counting sort over the occupied cells only (cell_left_ is
  // all zero between sets), so a small set costs no pass over all 32^3
  // cells; within a cell the indices ascend.
  void Fill(std::span<const Triplet> set) {
    pairs_.fill(0);
    slot1_banks_.fill(0);
    cells_.fill(0);
    for (const Triplet& t : set) {
      const std::uint32_t cell = CellOf(t);
      if (cell_left_[cell]++ == 0) pairs_[cell / kBanks] |= 1u << cell % kBanks;
    }
    std::uint32_t next = 0;
    for (std::uint32_t pair = 0; pair < kBanks * kBanks; ++pair) {
      if (pairs_[pair] == 0) continue;
      slot1_banks_[pair / kBanks] |= 1u << pair % kBanks;
      cells_[pair / kBanks] += std::popcount(pairs_[pair]);
      for (std::uint32_t m = pairs_[pair]; m != 0; m &= m - 1) {
        const std::uint32_t cell =
            pair * kBanks + static_cast<std::uint32_t>(std::countr_zero(m));
        cell_end_[cell] = next;
        next += cell_left_[cell];
      }
    }
    pool_.resize(set.size());
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      pool_[cell_end_[CellOf(set[i])]++] = i;
    }
  }

  // The last (highest) index left in the cell (g, b1, b2), which must hold
  // one.
  std::uint32_t Take(std::uint32_t g, std::uint32_t b1, std::uint32_t b2) {
    const std::uint32_t pair = g * kBanks + b1;
    const std::uint32_t cell = pair * kBanks + b2;
    const std::uint32_t i = pool_[--cell_end_[cell]];
    if (--cell_left_[cell] == 0) {
      pairs_[pair] &= ~(1u << b2);
      --cells_[g];
      if (pairs_[pair] == 0) slot1_banks_[g] &= ~(1u << b1);
    }
    return i;
  }

  // Calls left(indices) for each cell still holding some, cells ascending,
  // indices ascending within one, and empties the pool.
  template <class F>
  void Drain(F&& left) {
    for (std::uint32_t pair = 0; pair < kBanks * kBanks; ++pair) {
      for (std::uint32_t m = pairs_[pair]; m != 0; m &= m - 1) {
        const std::uint32_t cell =
            pair * kBanks + static_cast<std::uint32_t>(std::countr_zero(m));
        left(std::span<const std::uint32_t>(
            &pool_[cell_end_[cell] - cell_left_[cell]], cell_left_[cell]));
        cell_left_[cell] = 0;
      }
      pairs_[pair] = 0;
    }
    slot1_banks_.fill(0);
    cells_.fill(0);
  }

  // Group g's slot-2 mask for slot-1 bank b1, and its row of 32 such masks.
  std::uint32_t Slot2Banks(std::uint32_t g, std::uint32_t b1) const {
    return pairs_[g * kBanks + b1];
  }
  const std::uint32_t* Slot2Row(std::uint32_t g) const {
    return &pairs_[g * kBanks];
  }
  // The slot-1 banks of group g with a cell left, and how many cells.
  std::uint32_t Slot1Banks(std::uint32_t g) const { return slot1_banks_[g]; }
  std::uint32_t Cells(std::uint32_t g) const { return cells_[g]; }

 private:
  std::vector<std::uint32_t> cell_end_;   // [cell]: end of its remaining run
  std::vector<std::uint32_t> cell_left_;  // [cell]
  std::vector<std::uint32_t> pool_;       // set indices, cell by cell
  std::array<std::uint32_t, kBanks * kBanks> pairs_{};  // [g][b1]: b2 mask
  std::array<std::uint32_t, kBanks> slot1_banks_{};     // [g]: b1 mask
  std::array<std::uint32_t, kBanks> cells_{};           // [g]: cells left
};

// The builders' random numbers: xorshift32, deterministic and cheap,
// seeded per set so that a set's layout depends on that set alone.
class SetRandom {
 public:
  void Seed(std::size_t set_size) {
    state_ = 0x9e3779b9u ^ static_cast<std::uint32_t>(set_size);
  }
  std::uint32_t operator()() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  // One set bit of `mask` (which must have one): the first at or after a
  // random bank, wrapping.
  std::uint32_t AnyBit(std::uint32_t mask) {
    const std::uint32_t rotate = (*this)() % 32;
    return (static_cast<std::uint32_t>(
                std::countr_zero(std::rotr(mask, static_cast<int>(rotate)))) +
            rotate) %
           32;
  }

 private:
  std::uint32_t state_ = 1;
};

// The slot-1 and slot-2 banks of the warp a builder is making: which are
// free (bit b of free1, free2), which each group holds (bank1, bank2) and
// which group holds each (owner1, owner2; kNoGroup: none). A warp's groups
// hold distinct banks in each slot, so that none of its loads conflicts.
struct WarpBanks {
  static constexpr std::uint8_t kNoGroup = 0xff;

  void Reset() {
    free1 = free2 = ~0u;
    owner1.fill(kNoGroup);
    owner2.fill(kNoGroup);
  }
  void Hold(std::uint32_t g, std::uint32_t b1, std::uint32_t b2) {
    bank1[g] = static_cast<std::uint8_t>(b1);
    bank2[g] = static_cast<std::uint8_t>(b2);
    owner1[b1] = owner2[b2] = static_cast<std::uint8_t>(g);
    free1 &= ~(1u << b1);
    free2 &= ~(1u << b2);
  }
  void Release(std::uint32_t g) {
    owner1[bank1[g]] = owner2[bank2[g]] = kNoGroup;
    free1 |= 1u << bank1[g];
    free2 |= 1u << bank2[g];
  }

  std::uint32_t free1 = 0;
  std::uint32_t free2 = 0;
  std::array<std::uint8_t, kBanks> bank1{};
  std::array<std::uint8_t, kBanks> bank2{};
  std::array<std::uint8_t, kBanks> owner1{};
  std::array<std::uint8_t, kBanks> owner2{};
};

}  // namespace adj::triplet_schedule

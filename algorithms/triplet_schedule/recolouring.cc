#include "algorithms/triplet_schedule/recolouring.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triplet_schedule/bank_model.h"
#include "algorithms/triplet_schedule/colouring.h"

namespace adj::triplet_schedule {

namespace {

constexpr std::uint32_t kNoneFound = std::numeric_limits<std::uint32_t>::max();

// Per colour below `limit`: how many distinct neighbours of t hold it (0, 1
// or 2 meaning "more"), and which one when it is 1.
struct NeighborColours {
  std::vector<std::uint8_t> count;
  std::vector<std::uint32_t> holder;

  void Gather(std::span<const Triplet> triplets,
              const triangle_adjacency::Adjacency& adjacency,
              const std::vector<std::uint32_t>& colour, std::uint32_t t,
              std::uint32_t limit) {
    count.assign(limit, 0);
    holder.assign(limit, kNoneFound);
    ForEachNeighbor(triplets, adjacency, t, [&](std::uint32_t v) {
      const std::uint32_t c = colour[v];
      if (c >= limit || holder[c] == v) return;
      if (count[c] == 0) {
        count[c] = 1;
        holder[c] = v;
      } else {
        count[c] = 2;
      }
    });
  }
  std::uint32_t FirstFree(std::uint32_t except) const {
    for (std::uint32_t c = 0; c < count.size(); ++c) {
      if (count[c] == 0 && c != except) return c;
    }
    return kNoneFound;
  }
};

// RemoveColours' Kempe chains visit at most this many triplets per
// triplet of the input, over the whole call.
constexpr std::size_t kKempeBudget = 1;

// Kempe interchanges for RemoveColours, within a budget of triplets
// visited over one call (each try visits at most kLongestChain, and no
// more than the budget left).
class KempeChains {
 public:
  explicit KempeChains(std::size_t budget) : budget_(budget) {}

  // A colour below `top` that t can take after one Kempe interchange: for
  // colours c and d, the component of t's c-neighbours among the triplets
  // coloured c or d swaps c and d (every colour stays an independent set),
  // done where that component holds no d-neighbour of t, so that t then
  // has no neighbour in c. kNoneFound, colour unchanged, where no pair
  // allows it within the budget.
  std::uint32_t Free(std::span<const Triplet> triplets,
                     const triangle_adjacency::Adjacency& adjacency,
                     std::vector<std::uint32_t>& colour, std::uint32_t t,
                     std::uint32_t top) {
    if (budget_ == 0) return kNoneFound;
    around_.clear();
    ForEachNeighbor(triplets, adjacency, t,
                    [&](std::uint32_t v) { around_.push_back(v); });
    std::sort(around_.begin(), around_.end());
    around_.erase(std::unique(around_.begin(), around_.end()), around_.end());
    for (std::uint32_t c = 0; c < top; ++c) {
      for (std::uint32_t d = 0; d < top; ++d) {
        if (d == c) continue;
        if (budget_ == 0) return kNoneFound;
        const bool swappable = Chain(triplets, adjacency, colour, c, d);
        // Chain marked its members; unmarked, they swap or stay.
        for (const std::uint32_t v : chain_) {
          colour[v] &= ~kInChain;
          if (swappable) colour[v] = colour[v] == c ? d : c;
        }
        if (swappable) return c;
      }
    }
    return kNoneFound;
  }

 private:
  // The longest component tried; the chains that free a colour are nearly
  // all far shorter (docs/triplet_schedule.md#decisions-and-dead-ends).
  static constexpr std::size_t kLongestChain = 256;
  // A chain's members are marked in their colour while it grows: no
  // memory per triplet, and a marked one matches neither c nor d.
  static constexpr std::uint32_t kInChain = 0x80000000u;

  // Gathers into chain_ (marked) the c/d component of t's c-neighbours;
  // false where it holds a d-neighbour of t or would grow past
  // kLongestChain or the budget left.
  bool Chain(std::span<const Triplet> triplets,
             const triangle_adjacency::Adjacency& adjacency,
             std::vector<std::uint32_t>& colour, std::uint32_t c,
             std::uint32_t d) {
    chain_.clear();
    for (const std::uint32_t v : around_) {
      if (colour[v] == c) {
        colour[v] |= kInChain;
        chain_.push_back(v);
      }
    }
    const std::size_t longest = std::min(kLongestChain, budget_);
    bool ok = chain_.size() <= longest;
    for (std::size_t head = 0; head < chain_.size() && ok; ++head) {
      ForEachNeighbor(triplets, adjacency, chain_[head], [&](std::uint32_t v) {
        if (!ok || (colour[v] != c && colour[v] != d)) return;
        if ((colour[v] == d &&
             std::binary_search(around_.begin(), around_.end(), v)) ||
            chain_.size() >= longest) {
          ok = false;
          return;
        }
        colour[v] |= kInChain;
        chain_.push_back(v);
      });
    }
    budget_ -= std::min(budget_, chain_.size());
    return ok;
  }

  std::size_t budget_;
  std::vector<std::uint32_t> around_;
  std::vector<std::uint32_t> chain_;
};

// Moves every triplet of colour `top` to a lower colour; false (with some
// of them possibly moved, all colours still valid) when one cannot move.
bool EmptyColour(std::span<const Triplet> triplets,
                 const triangle_adjacency::Adjacency& adjacency,
                 std::vector<std::uint32_t>& colour,
                 std::span<const std::uint32_t> members, std::uint32_t top,
                 KempeChains& kempe) {
  NeighborColours around_t;
  NeighborColours around_u;
  for (const std::uint32_t t : members) {
    around_t.Gather(triplets, adjacency, colour, t, top);
    std::uint32_t free = around_t.FirstFree(kNoneFound);
    if (free == kNoneFound) {
      // A colour blocked by a single neighbour u: move u to a third colour
      // none of its own neighbours holds (t's is `top`, not below it).
      for (std::uint32_t c = 0; c < top && free == kNoneFound; ++c) {
        if (around_t.count[c] != 1) continue;
        const std::uint32_t u = around_t.holder[c];
        around_u.Gather(triplets, adjacency, colour, u, top);
        const std::uint32_t elsewhere = around_u.FirstFree(c);
        if (elsewhere == kNoneFound) continue;
        colour[u] = elsewhere;
        free = c;
      }
    }
    if (free == kNoneFound) {
      free = kempe.Free(triplets, adjacency, colour, t, top);
    }
    if (free == kNoneFound) return false;
    colour[t] = free;
  }
  return true;
}

}  // namespace

std::uint32_t RemoveColours(std::span<const Triplet> triplets,
                            const triangle_adjacency::Adjacency& adjacency,
                            std::vector<std::uint32_t>& colour,
                            std::uint32_t colours, std::uint32_t floor,
                            bool kempe_chains) {
  std::vector<std::uint32_t> members;
  KempeChains kempe(kempe_chains ? kKempeBudget * triplets.size() : 0);
  while (colours > std::max<std::uint32_t>(floor, 1)) {
    const std::uint32_t top = colours - 1;
    members.clear();
    for (std::uint32_t t = 0; t < colour.size(); ++t) {
      if (colour[t] == top) members.push_back(t);
    }
    if (!EmptyColour(triplets, adjacency, colour, members, top, kempe)) break;
    --colours;
  }
  return colours;
}

void SpreadBanks(std::span<const Triplet> triplets,
                 const triangle_adjacency::Adjacency& adjacency,
                 std::size_t particle_count, std::vector<std::uint32_t>& colour,
                 std::uint32_t colours, int passes) {
  std::vector<std::int64_t> size(colours, 0);
  std::vector<std::int64_t> banks(std::size_t{colours} * 3 * kBanks, 0);
  const auto bank_count = [&](std::uint32_t c, std::size_t k,
                              const Triplet& t) -> std::int64_t& {
    return banks[(c * 3 + k) * kBanks + t[k] % kBanks];
  };
  // Up to 64 colours, the colours held around each particle as a mask:
  // a triplet's free colours are three ORs away instead of a walk over its
  // neighbours, several times faster a pass
  // (docs/triplet_schedule.md#decisions-and-dead-ends). The masks stay exact
  // because each colour is an independent set: the triplet moving out of c was
  // the only one of c at its particles.
  const bool masked = colours <= 64;
  std::vector<std::uint64_t> held(masked ? particle_count : 0, 0);
  for (std::uint32_t t = 0; t < colour.size(); ++t) {
    ++size[colour[t]];
    for (std::size_t k = 0; k < 3; ++k) {
      ++bank_count(colour[t], k, triplets[t]);
      if (masked) held[triplets[t][k]] |= std::uint64_t{1} << colour[t];
    }
  }
  // Crowding of t if it joined c (its own counts excluded either way).
  const auto crowding = [&](std::uint32_t c, const Triplet& t, bool member) {
    std::int64_t total = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      total +=
          kBanks * (bank_count(c, k, t) - member + 1) - (size[c] - member + 1);
    }
    return total;
  };
  // blocked[c] == stamp: a neighbour of the triplet being visited holds c.
  std::vector<std::uint64_t> blocked(masked ? 0 : colours, 0);
  std::uint64_t stamp = 0;
  std::size_t moved = colour.size();
  for (int pass = 0; pass < passes && moved * 100 >= colour.size(); ++pass) {
    moved = 0;
    for (std::uint32_t t = 0; t < colour.size(); ++t) {
      const Triplet& triplet = triplets[t];
      const std::uint32_t from = colour[t];
      const std::int64_t now = crowding(from, triplet, true);
      if (now <= 0) continue;
      std::uint32_t best = from;
      std::int64_t best_crowding = now;
      const auto consider = [&](std::uint32_t c) {
        const std::int64_t there = crowding(c, triplet, false);
        if (there < best_crowding) {
          best_crowding = there;
          best = c;
        }
      };
      if (masked) {
        for (std::uint64_t free =
                 ~(held[triplet[0]] | held[triplet[1]] | held[triplet[2]]) &
                 (~std::uint64_t{0} >> (64 - colours));
             free != 0; free &= free - 1) {
          consider(static_cast<std::uint32_t>(std::countr_zero(free)));
        }
      } else {
        ++stamp;
        ForEachNeighbor(triplets, adjacency, t,
                        [&](std::uint32_t v) { blocked[colour[v]] = stamp; });
        for (std::uint32_t c = 0; c < colours; ++c) {
          if (c != from && blocked[c] != stamp) consider(c);
        }
      }
      if (best == from) continue;
      --size[from];
      ++size[best];
      for (std::size_t k = 0; k < 3; ++k) {
        --bank_count(from, k, triplet);
        ++bank_count(best, k, triplet);
        if (masked) {
          // Cleared then set, not toggled: a particle may repeat in t.
          held[triplet[k]] &= ~(std::uint64_t{1} << from);
          held[triplet[k]] |= std::uint64_t{1} << best;
        }
      }
      colour[t] = best;
      ++moved;
    }
  }
}

}  // namespace adj::triplet_schedule

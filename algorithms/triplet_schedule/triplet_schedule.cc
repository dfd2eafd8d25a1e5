#include "algorithms/triplet_schedule/triplet_schedule.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <string>
#include <vector>

namespace adj::triplet_schedule {
namespace {

constexpr std::uint32_t kMax16 = std::numeric_limits<std::uint16_t>::max();

// Per slot of a set's triplets, how many fall on each bank.
struct SlotBankCounts {
  std::array<std::array<std::uint64_t, kBanks>, 3> count{};
  std::uint64_t size = 0;

  void Add(const Triplet& triplet) {
    ++size;
    for (int k = 0; k < 3; ++k) ++count[k][triplet[k] % kBanks];
  }
  std::uint64_t Chunks() const { return (size + kWarp - 1) / kWarp; }
  // Each slot replays at least once per chunk, and at least as often as its
  // busiest bank has triplets, whatever the order.
  std::uint64_t ReplaysFloor() const {
    std::uint64_t floor = 0;
    for (const auto& banks : count) {
      floor +=
          std::max(Chunks(), *std::max_element(banks.begin(), banks.end()));
    }
    return floor;
  }
};

void CheckTriplets(std::span<const Triplet> triplets,
                   std::size_t particle_count, unsigned index_bits) {
  for (std::size_t i = 0; i < triplets.size(); ++i) {
    const Triplet& triplet = triplets[i];
    for (int k = 0; k < 3; ++k) {
      if (triplet[k] >= particle_count) {
        throw Error("triplet_schedule: triplet " + std::to_string(i) +
                    " refers to particle " + std::to_string(triplet[k]) +
                    ", but there are only " + std::to_string(particle_count) +
                    " particles");
      }
    }
    if (index_bits == 16 && triplet[3] > kMax16) {
      throw Error("triplet_schedule: triplet " + std::to_string(i) +
                  " has weight index " + std::to_string(triplet[3]) +
                  ", which NvCloth's 16-bit output cannot hold");
    }
  }
}

}  // namespace

bool IsValidSimdWidth(unsigned width) { return width >= 1 && width <= 64; }
bool IsValidWarpWidth(unsigned width) { return width == 16 || width == 32; }

void CheckSimdInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits) {
  if (!IsValidSimdWidth(width)) {
    throw Error("triplet_schedule: SIMD width " + std::to_string(width) +
                " is outside [1, 64]");
  }
  // The dummy triplet names particles N, N + 1 and N + 2.
  if (particle_count + 2 > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("triplet_schedule: " + std::to_string(particle_count) +
                " particles leave no uint32 ids for the dummy particles");
  }
  if (index_bits == 16 && particle_count + 2 > kMax16) {
    throw Error("triplet_schedule: " + std::to_string(particle_count) +
                " particles need dummy particle " +
                std::to_string(particle_count + 2) +
                ", past NvCloth's 16-bit indices (N + 2 <= 65535); use a "
                "32-bit scheduler");
  }
  CheckTriplets(triplets, particle_count, index_bits);
}

void CheckWarpInput(std::span<const Triplet> triplets,
                    std::size_t particle_count, unsigned width,
                    unsigned index_bits) {
  if (!IsValidWarpWidth(width)) {
    throw Error("triplet_schedule: warp width " + std::to_string(width) +
                " is not 16 or 32");
  }
  if (index_bits == 16 && particle_count > std::size_t{kMax16} + 1) {
    throw Error("triplet_schedule: " + std::to_string(particle_count) +
                " particles do not fit NvCloth's 16-bit indices (at most "
                "65536); use a 32-bit scheduler");
  }
  CheckTriplets(triplets, particle_count, index_bits);
}

triangle_adjacency::Adjacency TripletAdjacency(
    std::span<const Triplet> triplets, std::size_t particle_count) {
  std::vector<Triangle> corners(triplets.size());
  for (std::size_t i = 0; i < triplets.size(); ++i) {
    corners[i] = {triplets[i][0], triplets[i][1], triplets[i][2]};
  }
  triangle_adjacency::Adjacency adjacency;
  triangle_adjacency::NvClothBuild(corners, particle_count, adjacency);
  return adjacency;
}

namespace {

// The triplet's particles take colour c (below 64) in their masks.
void TakeColour(const Triplet& triplet, std::uint32_t c, std::uint64_t* taken) {
  const std::uint64_t bit = std::uint64_t{1} << c;
  taken[triplet[0]] |= bit;
  taken[triplet[1]] |= bit;
  taken[triplet[2]] |= bit;
}

// Greedy's step on 64-bit masks (taken[p]: the colours of p's triplets so
// far): the smallest colour none of the triplet's particles has taken,
// which they then take.
std::uint32_t TakeSmallestFreeColour(const Triplet& triplet,
                                     std::uint64_t* taken) {
  const int c = std::countr_one(taken[triplet[0]] | taken[triplet[1]] |
                                taken[triplet[2]]);
  TakeColour(triplet, static_cast<std::uint32_t>(c), taken);
  return static_cast<std::uint32_t>(c);
}

// From this many triplets on, a particle front's rows, triplets and
// colours outgrow the core's cache (some 32 bytes a triplet) and each
// dequeued particle waits on misses: its row, then each of its triplets.
// The queue says which particles come next, so their rows are fetched
// kRowAhead particles ahead and, once there, their triplets and colours
// kFanAhead ahead. Below the threshold the data stay in cache and the
// prefetches cost time (docs/triplet_schedule.md#decisions-and-dead-ends).
constexpr std::size_t kPrefetchFromTriplets = 32768;
constexpr std::size_t kRowAhead = 8;
constexpr std::size_t kFanAhead = 4;

// Greedy smallest-free colouring over a particle front: each particle
// dequeued colours its uncoloured triplets, in row order or (kMostSaturated)
// the one whose particles have taken the most colours first (DSatur's
// rule, within the particle's fan), and queues their particles not seen
// yet. In row order a permuted mesh's fans are coloured in an order
// unrelated to their shape, which left permuted grids at maxAdj + 2
// colours; most saturated first takes them to maxAdj + 1, at more time
// (docs/triplet_schedule.md#decisions-and-dead-ends).
// A particle's row is read once (3 T entries in
// all, against some 18 T neighbour visits for a triplet front on a mesh),
// and a triplet's taken colours are the union of its three particles'
// 64-bit masks, so colouring it is O(1). Needs every colour below 64:
// greedy uses at most 3 (maxAdj - 1) + 1, so maxAdj <= kMaskedMaxAdjacent.
// Cloned for POPCNT, chosen at load time: the baseline x86-64 build has
// none, and the library call the saturation's popcount became cost a
// visible share of the colouring.
__attribute__((target_clones("popcnt", "default"))) Colouring
ParticleFrontColouring(std::span<const Triplet> triplets,
                       const triangle_adjacency::Adjacency& adjacency,
                       FanOrder fan_order) {
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const std::size_t count = triplets.size();
  const std::size_t particles = adjacency.csr.rows();
  Colouring result;
  result.colour.assign(count, kNone);
  result.order.resize(count);
  std::vector<std::uint64_t> taken(particles, 0);
  std::vector<std::uint32_t> queue(particles);
  std::vector<std::uint8_t> queued(particles, 0);
  std::uint32_t* const colour = result.colour.data();
  std::uint32_t* const order = result.order.data();
  const std::uint32_t* const offsets = adjacency.csr.offsets.data();
  const std::uint32_t* const rows = adjacency.csr.indices.data();
  std::uint64_t used = 0;
  std::size_t coloured = 0;
  std::size_t head = 0;
  std::size_t tail = 0;
  const auto paint = [&](std::uint32_t t) {
    const Triplet& triplet = triplets[t];
    const std::uint32_t c = TakeSmallestFreeColour(triplet, taken.data());
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t p = triplet[k];
      if (!queued[p]) {
        queued[p] = 1;
        queue[tail++] = p;
      }
    }
    used |= std::uint64_t{1} << c;
    colour[t] = c;
    order[coloured++] = t;
  };
  // The dequeued particle's uncoloured triplets: at most its row, at most
  // maxAdj long.
  std::vector<std::uint32_t> fan(adjacency.max_adjacent);
  std::vector<int> fan_taken(adjacency.max_adjacent);
  const auto saturation = [&](std::uint32_t t) {
    const Triplet& triplet = triplets[t];
    return std::popcount(taken[triplet[0]] | taken[triplet[1]] |
                         taken[triplet[2]]);
  };
  const bool prefetch = count >= kPrefetchFromTriplets;
  for (std::size_t seed = 0; seed < count; ++seed) {
    if (colour[seed] != kNone) continue;
    paint(static_cast<std::uint32_t>(seed));
    for (; head < tail; ++head) {
      // Written out here: in a function of its own, GCC 12 finds the
      // prefetches free of side effects and drops the call.
      if (prefetch && head + kRowAhead < tail) {
        __builtin_prefetch(&rows[offsets[queue[head + kRowAhead]]]);
      }
      if (prefetch && head + kFanAhead < tail) {
        const std::uint32_t ahead = queue[head + kFanAhead];
        for (std::uint32_t e = offsets[ahead]; e < offsets[ahead + 1]; ++e) {
          __builtin_prefetch(&colour[rows[e]]);
          __builtin_prefetch(&triplets[rows[e]]);
        }
      }
      const std::uint32_t p = queue[head];
      if (fan_order == FanOrder::kRowOrder) {
        for (std::uint32_t e = offsets[p]; e < offsets[p + 1]; ++e) {
          if (colour[rows[e]] == kNone) paint(rows[e]);
        }
        continue;
      }
      std::size_t waiting = 0;
      for (std::uint32_t e = offsets[p]; e < offsets[p + 1]; ++e) {
        // A triplet naming p twice is listed twice: take it once.
        if (colour[rows[e]] == kNone &&
            (waiting == 0 || fan[waiting - 1] != rows[e])) {
          fan[waiting++] = rows[e];
        }
      }
      if (waiting == 1) {
        paint(fan[0]);
        continue;
      }
      // Most saturated first, as they stand before any of them is painted
      // (re-ranking after each took the same colours on grids, at more
      // cost); ties in row order.
      for (std::size_t i = 0; i < waiting; ++i) {
        fan_taken[i] = saturation(fan[i]);
      }
      for (std::size_t i = 1; i < waiting; ++i) {
        const std::uint32_t t = fan[i];
        const int t_taken = fan_taken[i];
        std::size_t j = i;
        for (; j > 0 && fan_taken[j - 1] < t_taken; --j) {
          fan[j] = fan[j - 1];
          fan_taken[j] = fan_taken[j - 1];
        }
        fan[j] = t;
        fan_taken[j] = t_taken;
      }
      for (std::size_t i = 0; i < waiting; ++i) paint(fan[i]);
    }
  }
  result.colours = static_cast<std::uint32_t>(64 - std::countl_zero(used));
  return result;
}

// The same greedy over a triplet front, for any number of colours: each
// triplet dequeued marks its neighbours' colours, takes the smallest free
// one, and queues the neighbours not seen yet.
Colouring TripletFrontColouring(
    std::span<const Triplet> triplets,
    const triangle_adjacency::Adjacency& adjacency) {
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const std::size_t count = triplets.size();
  Colouring result;
  // A spare last entry takes the branch-free queueing's stores for
  // neighbours already queued or coloured (storing their own colour back
  // would make the next visit's load wait on that store).
  result.colour.assign(count + 1, kNone);
  const std::size_t spare_triplet = count;
  // One spare entry: the branch-free queueing below writes order[tail]
  // for every neighbour visited, also when all count triplets are queued.
  result.order.resize(count + 1);
  // Raw pointers: the loop below is the scheduler's hottest, and through
  // the vectors the compiler reloaded their data pointers on every store.
  std::uint32_t* const colour = result.colour.data();
  std::uint32_t* const order = result.order.data();
  const std::uint32_t* const offsets = adjacency.csr.offsets.data();
  const std::uint32_t* const rows = adjacency.csr.indices.data();
  // A triplet has at most 3 (maxAdj - 1) neighbours, so greedy never needs
  // more colours than that plus one. colour_used[c] == t marks colour c as
  // taken by a neighbour of triplet t.
  std::vector<std::uint32_t> colour_used(3 * adjacency.max_adjacent + 2, kNone);
  const auto spare = static_cast<std::uint32_t>(colour_used.size() - 1);
  std::uint32_t colours = 0;
  std::size_t tail = 0;
  // colour[v] is kNone until v is queued, kQueued until it is coloured: one
  // array, so each neighbour visit is one random access, not two.
  constexpr std::uint32_t kQueued = kNone - 1;
  for (std::size_t seed = 0; seed < count; ++seed) {
    if (colour[seed] != kNone) continue;
    colour[seed] = kQueued;
    std::size_t head = tail;
    order[tail++] = static_cast<std::uint32_t>(seed);
    for (; head < tail; ++head) {
      const std::uint32_t t = order[head];
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t p = triplets[t][k];
        for (std::uint32_t e = offsets[p]; e < offsets[p + 1]; ++e) {
          // Branch-free: whether a neighbour is coloured, queued or new
          // follows no pattern the predictor learns on a shuffled or real
          // mesh, and the mispredictions cost more than the stores made
          // unconditional (an uncoloured neighbour marks the spare last
          // entry of colour_used; a queued or coloured one is written to
          // order[tail] without advancing tail).
          const std::uint32_t neighbour = rows[e];
          const std::uint32_t theirs = colour[neighbour];
          const bool is_new = theirs == kNone;
          colour_used[std::min(theirs, spare)] = t;
          colour[is_new ? neighbour : spare_triplet] = kQueued;
          order[tail] = neighbour;
          tail += is_new;
        }
      }
      std::uint32_t c = 0;
      while (colour_used[c] == t) ++c;
      colours = std::max(colours, c + 1);
      colour[t] = c;
    }
  }
  result.order.pop_back();
  result.colour.pop_back();
  result.colours = colours;
  return result;
}

}  // namespace

Colouring BreadthFirstColouring(std::span<const Triplet> triplets,
                                const triangle_adjacency::Adjacency& adjacency,
                                FanOrder fan_order) {
  // The particle front is the faster, and both take the same number of
  // colours on the benchmark's meshes and grids (the particle front in row
  // order): docs/triplet_schedule.md#decisions-and-dead-ends.
  return adjacency.max_adjacent <= kMaskedMaxAdjacent
             ? ParticleFrontColouring(triplets, adjacency, fan_order)
             : TripletFrontColouring(triplets, adjacency);
}

Colouring InputOrderColouring(std::span<const Triplet> triplets,
                              std::size_t particle_count) {
  Colouring result;
  result.colour.resize(triplets.size());
  result.order.resize(triplets.size());
  std::vector<std::uint64_t> taken(particle_count, 0);
  std::uint64_t used = 0;
  for (std::uint32_t t = 0; t < triplets.size(); ++t) {
    const std::uint32_t c = TakeSmallestFreeColour(triplets[t], taken.data());
    used |= std::uint64_t{1} << c;
    result.colour[t] = c;
    result.order[t] = t;
  }
  result.colours = static_cast<std::uint32_t>(64 - std::countl_zero(used));
  return result;
}

Colouring WarpModelColouring(std::span<const Triplet> triplets,
                             std::size_t particle_count, std::uint32_t limit,
                             std::uint64_t& replays) {
  // Per colour, its current warp: per slot the triplets on each bank and
  // the most on one (at least 1, as NvCloth counts); and its size.
  struct WarpModel {
    std::array<std::array<std::uint8_t, kBanks>, 3> count{};
    std::array<std::uint8_t, 3> most = {1, 1, 1};
    std::uint32_t size = 0;
  };
  Colouring result;
  result.colour.resize(triplets.size());
  result.order.resize(triplets.size());
  std::vector<std::uint64_t> taken(particle_count, 0);
  std::vector<WarpModel> models(64);
  const std::uint64_t below_limit =
      limit >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << limit) - 1;
  std::uint64_t used = 0;
  replays = 0;
  for (std::uint32_t t = 0; t < triplets.size(); ++t) {
    const Triplet& triplet = triplets[t];
    const std::uint64_t free =
        ~(taken[triplet[0]] | taken[triplet[1]] | taken[triplet[2]]);
    auto c = static_cast<std::uint32_t>(std::countr_zero(free));
    int least = 4;
    for (std::uint64_t m = free & below_limit; m != 0 && least > 0;
         m &= m - 1) {
      const auto candidate = static_cast<std::uint32_t>(std::countr_zero(m));
      const WarpModel& model = models[candidate];
      int cost = 0;
      for (std::uint32_t k = 0; k < 3; ++k) {
        cost += model.count[k][triplet[k] % kBanks] == model.most[k];
      }
      if (cost < least) {
        least = cost;
        c = candidate;
      }
    }
    TakeColour(triplet, c, taken.data());
    used |= std::uint64_t{1} << c;
    result.colour[t] = c;
    result.order[t] = t;
    WarpModel& model = models[c];
    for (std::uint32_t k = 0; k < 3; ++k) {
      std::uint8_t& count = model.count[k][triplet[k] % kBanks];
      model.most[k] = std::max<std::uint8_t>(model.most[k], ++count);
    }
    if (++model.size % kWarp == 0) {
      replays += model.most[0] + model.most[1] + model.most[2];
      model = WarpModel{.size = model.size};
    }
  }
  for (const WarpModel& model : models) {
    if (model.size % kWarp != 0) {
      replays += model.most[0] + model.most[1] + model.most[2];
    }
  }
  result.colours = static_cast<std::uint32_t>(64 - std::countl_zero(used));
  return result;
}

std::uint64_t ColouringReplaysFloor(std::span<const Triplet> triplets,
                                    std::span<const std::uint32_t> colour,
                                    std::uint32_t colours,
                                    std::uint64_t& ideal) {
  std::vector<SlotBankCounts> sets(colours);
  for (std::size_t t = 0; t < triplets.size(); ++t) {
    sets[colour[t]].Add(triplets[t]);
  }
  std::uint64_t floor = 0;
  ideal = 0;
  for (const SlotBankCounts& set : sets) {
    ideal += 3 * set.Chunks();
    floor += set.ReplaysFloor();
  }
  return floor;
}

namespace {

constexpr std::uint32_t kNoneFound = std::numeric_limits<std::uint32_t>::max();

// Per colour below `limit`: how many distinct neighbours of t hold it (0, 1
// or 2 meaning "more"), and which one when it is 1.
struct NeighbourColours {
  std::vector<std::uint8_t> count;
  std::vector<std::uint32_t> holder;

  void Gather(std::span<const Triplet> triplets,
              const triangle_adjacency::Adjacency& adjacency,
              const std::vector<std::uint32_t>& colour, std::uint32_t t,
              std::uint32_t limit) {
    count.assign(limit, 0);
    holder.assign(limit, kNoneFound);
    ForEachNeighbour(triplets, adjacency, t, [&](std::uint32_t v) {
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
    ForEachNeighbour(triplets, adjacency, t,
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
      ForEachNeighbour(triplets, adjacency, chain_[head], [&](std::uint32_t v) {
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
  NeighbourColours around_t;
  NeighbourColours around_u;
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
        ForEachNeighbour(triplets, adjacency, t,
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

void StartWarpSchedule(std::span<const Triplet> triplets,
                       std::size_t particle_count, unsigned width,
                       unsigned index_bits, Schedule& out) {
  CheckWarpInput(triplets, particle_count, width, index_bits);
  out.set_sizes.clear();
  out.triplets.clear();
  out.padding = 0;
  out.width = width;
  out.index_bits = index_bits;
  out.threads = 1;
}

std::vector<std::uint32_t> GroupByColour(
    const Colouring& colouring, std::vector<std::uint32_t>& set_sizes) {
  set_sizes.assign(colouring.colours, 0);
  for (const std::uint32_t c : colouring.colour) ++set_sizes[c];
  std::vector<std::uint32_t> cursor(colouring.colours, 0);
  for (std::uint32_t c = 1; c < colouring.colours; ++c) {
    cursor[c] = cursor[c - 1] + set_sizes[c - 1];
  }
  std::vector<std::uint32_t> members(colouring.colour.size());
  for (const std::uint32_t t : colouring.order) {
    members[cursor[colouring.colour[t]]++] = t;
  }
  return members;
}

void PadSets(std::span<const Triplet> ordered, std::size_t particle_count,
             Schedule& out) {
  const unsigned width = out.width;
  std::uint32_t padding = 0;
  for (const std::uint32_t size : out.set_sizes) {
    padding += (width - size % width) % width;
  }
  out.triplets.clear();
  out.triplets.reserve(ordered.size() + padding);
  const Triplet dummy = DummyTriplet(particle_count);
  std::size_t next = 0;
  for (const std::uint32_t size : out.set_sizes) {
    out.triplets.insert(out.triplets.end(), ordered.begin() + next,
                        ordered.begin() + next + size);
    next += size;
    out.triplets.insert(out.triplets.end(), (width - size % width) % width,
                        dummy);
  }
  out.padding = padding;
}

std::uint64_t SetReplays(std::span<const Triplet> set) {
  std::uint64_t replays = 0;
  for (std::size_t chunk = 0; chunk < set.size(); chunk += kWarp) {
    const std::size_t end = std::min<std::size_t>(set.size(), chunk + kWarp);
    for (int k = 0; k < 3; ++k) {
      std::array<std::uint8_t, kBanks> count{};
      std::uint8_t most = 0;
      for (std::size_t i = chunk; i < end; ++i) {
        most = std::max(most, ++count[set[i][k] % kBanks]);
      }
      replays += most;
    }
  }
  return replays;
}

std::uint64_t SetReplaysFloor(std::span<const Triplet> set) {
  SlotBankCounts counts;
  for (const Triplet& triplet : set) counts.Add(triplet);
  return counts.ReplaysFloor();
}

std::span<const Variant> SimdSchedulers() {
  static constexpr std::array kVariants = {
      Variant{"nvcloth_simd", Backend::kSerial, Origin::kFaithful,
              "faithful NvCloth >= 1.1.4 simd(N, W): greedy forward scan for "
              "the first triplet that fits the batch, swapped into place; a "
              "set closes only when none fits, and is padded to a multiple "
              "of W with (N, N+1, N+2, 0); 16-bit output",
              &NvClothSimd},
      Variant{"nvcloth_simd_legacy", Backend::kSerial, Origin::kFaithful,
              "faithful PhysX 3.4 / NvCloth 1.0-1.1.3 simd: per-particle "
              "batch marks, conflicting candidates swapped to the back, sets "
              "longer than W trimmed to a multiple of W; padded as "
              "SwCloth did; 16-bit output",
              &NvClothSimdLegacy},
      Variant{"stamped_simd", Backend::kSerial, Origin::kOurs,
              "NvCloth's simd schedule exactly (same sets, order and "
              "padding) with per-particle batch stamps instead of scanning "
              "the batch, and a search that skips triplets the open batch "
              "already rejected; 32-bit output",
              &StampedSimd},
  };
  return kVariants;
}

std::span<const Variant> WarpSchedulers() {
  static constexpr std::array kVariants = {
      Variant{"nvcloth_warp", Backend::kSerial, Origin::kFaithful,
              "faithful NvCloth warp(N, W): maxAdj pre-created sets, best "
              "fit by added bank replays (early exit at 0), bank model reset "
              "every W insertions, and the final scatter that reverses each "
              "set (so the model misses the real warps); 16-bit output",
              &NvClothWarp},
      Variant{"nvcloth_warp_forward", Backend::kSerial, Origin::kFixed,
              "NvCloth's warp with a forward scatter (fixed): each set keeps "
              "insertion order, so the bank model matches the real warps; "
              "16-bit output",
              &NvClothWarpForward},
      Variant{"bfs_banked_warp", Backend::kSerial, Origin::kOurs,
              "greedy smallest-colour in input order where that "
              "takes at most maxAdj + 1 sets or Kempe chains bring it to "
              "maxAdj, else in breadth-first order "
              "over shared particles, most saturated triplet first in each "
              "particle's fan (at most maxAdj + 1 on permuted grids too), "
              "unless input order still takes fewer; colours above maxAdj "
              "then emptied by one-step Kempe swaps; each set cut into full "
              "warps of 32 filled by least added bank replays on the real "
              "layout, 16 warps' costs at once on 16-byte vectors, three "
              "sets at once; 32-bit output",
              &BfsBankedWarp},
      Variant{"bfs_built_warp", Backend::kSerial, Origin::kOurs,
              "bfs_banked_warp's sets; each set of at least 32 warps has "
              "its full warps built whole, one triplet per slot-0 bank with "
              "slot-1 and slot-2 banks free (fewest-cells bank first, one-step "
              "augmenting repair), leftovers into the holes by fewest added "
              "replays; sets whose first 4 warps leave more than 6 holes, and "
              "smaller ones, keep bfs_banked_warp's layout; fewer replays, "
              "more time; 32-bit output",
              &BfsBuiltWarp},
      Variant{"bfs_built_warp_openmp", Backend::kOpenMp, Origin::kOurs,
              "bfs_built_warp's schedule (the same on every thread "
              "count), its sets laid out in parallel, one per OpenMP thread "
              "at a time; the colouring stays serial; 32-bit output",
              &BfsBuiltWarpOpenMp, "bfs_built_warp"},
      Variant{"bfs_walk_warp", Backend::kSerial, Origin::kOurs,
              "bfs_built_warp with one pass of bank spreading after "
              "the colouring, sets built from 16 warps (not 32), and a "
              "random walk (WalkSAT's, for 3-D matching) where a warp's "
              "greedy build leaves lanes without a conflict-free triplet; "
              "where the input-order colouring "
              "crowds half the banks (natural alternating grids), NvCloth's "
              "best fit on colour masks instead; 32-bit output",
              &BfsWalkWarp},
      Variant{"bfs_walk_warp_openmp", Backend::kOpenMp, Origin::kOurs,
              "bfs_walk_warp's schedule (the same on every thread "
              "count), its sets laid out in parallel, one per OpenMP thread "
              "at a time; colouring and spreading stay serial; 32-bit output",
              &BfsWalkWarpOpenMp, "bfs_walk_warp"},
      Variant{"bank_matched_warp", Backend::kSerial, Origin::kOurs,
              "breadth-first greedy colouring, then the top colour "
              "emptied while one-step Kempe swaps allow (floor maxAdj); each "
              "set matched to its warps of 32 by per-bank bitsets (first "
              "warp free in all 3 banks, else fewest added replays); 32-bit "
              "output",
              &BankMatchedWarp},
      Variant{"round_matched_warp", Backend::kSerial, Origin::kOurs,
              "bank_matched_warp's sets; each set whose warps replay "
              "more than 1 % above its floor is also matched round by round "
              "(the set's triplets of one slot-0 bank spread over its warps by "
              "augmenting paths, so that slot 0 stays conflict-free and slots "
              "1-2 fill banks that cost nothing) and keeps the layout with "
              "fewer replays; slower, fewer replays; 32-bit output",
              &RoundMatchedWarp},
      Variant{"transversal_warp", Backend::kSerial, Origin::kOurs,
              "bank_matched_warp's sets; each set whose warps replay "
              "more than 1 % above its floor is also laid out as whole "
              "conflict-free warps (one triplet per slot-0 bank, slot-1 and "
              "slot-2 banks all distinct, found by a depth-limited displacing "
              "search), the leftovers filling the holes where they add fewest "
              "replays, so that conflicts gather in few warps; keeps the "
              "layout with fewer replays; 32-bit output",
              &TransversalWarp},
  };
  return kVariants;
}

}  // namespace adj::triplet_schedule

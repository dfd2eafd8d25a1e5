#include "algorithms/triplet_schedule/colouring.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triplet_schedule/bank_model.h"

namespace adj::triplet_schedule {

triangle_adjacency::Adjacency TripletAdjacency(
    std::span<const Triplet> triplets, std::size_t particle_count) {
  std::vector<Triangle> corners(triplets.size());
  for (std::size_t i = 0; i < triplets.size(); ++i) {
    corners[i] = {triplets[i][0], triplets[i][1], triplets[i][2]};
  }
  triangle_adjacency::Adjacency adjacency;
  // NvCloth's scheduler builds its adjacency with its AdjacencyQuerier: the
  // family's faithful row.
  FindVariant(triangle_adjacency::Variants(), "nvcloth")
      ->run(corners, particle_count, adjacency);
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
// visible share of the colouring. Not under ThreadSanitizer, which
// instruments the clones' resolver: the loader runs it before TSan's runtime
// is up, and it crashes.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ADJ_COLOURING_NO_CLONES
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(ADJ_COLOURING_NO_CLONES)
Colouring
#else
__attribute__((target_clones("popcnt", "default"))) Colouring
#endif
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
          const std::uint32_t neighbor = rows[e];
          const std::uint32_t theirs = colour[neighbor];
          const bool is_new = theirs == kNone;
          colour_used[std::min(theirs, spare)] = t;
          colour[is_new ? neighbor : spare_triplet] = kQueued;
          order[tail] = neighbor;
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

}  // namespace adj::triplet_schedule

// NvCloth's TripletScheduler::warp (TripletScheduler.cpp L295-405), step for
// step: see docs/triplet_schedule.md. Greedy colouring in
// input order over maxAdjacentCount pre-created sets; among the sets that
// hold no neighbour, the one whose bank model grows least (cost 0..3, early
// exit at 0, ties to the lowest index); the model of a set is reset every W
// insertions. The final scatter runs a decrementing inclusive prefix sum,
// which reverses every set: the quirk nvcloth_warp keeps and
// nvcloth_warp_forward fixes.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/colouring.h"
#include "algorithms/triplet_schedule/input.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "algorithms/triplet_schedule/variants.h"

namespace adj::triplet_schedule {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// NvCloth's TripletSet: which triplet last marked the set as holding one of
// its neighbours, and the bank model of the set's open warp.
struct TripletSet {
  std::uint32_t mark = kNone;
  std::array<std::uint8_t, 3> replays = {1, 1, 1};
  std::array<std::array<std::uint8_t, 32>, 3> conflicts = {};
};

void Warp(std::span<const Triplet> input, std::size_t particle_count,
          unsigned width, bool reverse_sets, Schedule& out) {
  StartWarpSchedule(input, particle_count, width, 16, out);
  const std::size_t count = input.size();
  if (count == 0) return;

  const triangle_adjacency::Adjacency adjacency =
      TripletAdjacency(input, particle_count);

  const std::uint32_t mask = width - 1;
  std::vector<TripletSet> sets(adjacency.max_adjacent);
  std::vector<std::uint32_t>& set_sizes = out.set_sizes;
  set_sizes.assign(adjacency.max_adjacent, 0);
  std::vector<std::uint32_t> set_of(count, kNone);

  for (std::uint32_t tri = 0; tri < count; ++tri) {
    const Triplet& triplet = input[tri];
    for (int k = 0; k < 3; ++k) {
      for (const std::uint32_t neighbor : adjacency.csr.Row(triplet[k])) {
        if (set_of[neighbor] != kNone) sets[set_of[neighbor]].mark = tri;
      }
    }
    std::uint32_t best = kNone;
    std::uint32_t best_cost = 4;  // one more than the largest cost, 3
    for (std::uint32_t s = 0; s < sets.size() && best_cost != 0; ++s) {
      const TripletSet& set = sets[s];
      if (set.mark == tri) continue;
      std::uint32_t cost = 0;
      for (int k = 0; k < 3; ++k) {
        cost += set.replays[k] == set.conflicts[k][triplet[k] & mask];
      }
      if (cost < best_cost) {
        best_cost = cost;
        best = s;
      }
    }
    if (best == kNone) {
      best = static_cast<std::uint32_t>(sets.size());
      sets.emplace_back();
      set_sizes.push_back(0);
    }
    if (++set_sizes[best] % width != 0) {
      TripletSet& set = sets[best];
      for (int k = 0; k < 3; ++k) {
        const std::uint8_t conflicts = ++set.conflicts[k][triplet[k] & mask];
        set.replays[k] = std::max(set.replays[k], conflicts);
      }
    } else {
      sets[best] = TripletSet{};  // this triplet closed a warp
    }
    set_of[tri] = best;
  }

  // Make the sets contiguous.
  std::vector<std::uint32_t> cursor(set_sizes.size());
  std::uint32_t sum = 0;
  for (std::size_t s = 0; s < set_sizes.size(); ++s) {
    sum += set_sizes[s];
    cursor[s] = reverse_sets ? sum : sum - set_sizes[s];
  }
  out.triplets.resize(count);
  for (std::size_t tri = 0; tri < count; ++tri) {
    std::uint32_t& at = cursor[set_of[tri]];
    if (reverse_sets) {
      out.triplets[--at] = input[tri];
    } else {
      out.triplets[at++] = input[tri];
    }
  }
}

}  // namespace

void NvClothWarp(std::span<const Triplet> triplets, std::size_t particle_count,
                 unsigned width, Schedule& out) {
  Warp(triplets, particle_count, width, /*reverse_sets=*/true, out);
}

void NvClothWarpForward(std::span<const Triplet> triplets,
                        std::size_t particle_count, unsigned width,
                        Schedule& out) {
  Warp(triplets, particle_count, width, /*reverse_sets=*/false, out);
}

}  // namespace adj::triplet_schedule

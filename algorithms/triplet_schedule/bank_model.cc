#include "algorithms/triplet_schedule/bank_model.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace adj::triplet_schedule {

namespace {

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

}  // namespace

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

}  // namespace adj::triplet_schedule

#include "algorithms/triplet_collide/tiled_plan.h"

#include <algorithm>
#include <array>

namespace adj::triplet_collide::tiled {

Plan MakePlan(const triplet_schedule::Schedule& schedule,
              std::size_t particle_count) {
  Plan plan;
  plan.triplets = schedule.triplets;
  plan.set_first_tile.reserve(schedule.set_sizes.size() + 1);
  plan.set_slots.assign(schedule.set_sizes.size(), 0);
  // owner[p]: the tile that staged p (stamps, never cleared); slot[p]: its
  // slot there.
  std::vector<std::uint32_t> owner(particle_count, kNoParticle);
  std::vector<std::uint32_t> slot(particle_count, 0);
  std::vector<std::uint32_t> staged;  // the open tile's particles, in order
  std::vector<std::uint32_t> fresh;   // a warp's particles new to the tile
  std::uint32_t start = 0;
  for (std::size_t s = 0; s < schedule.set_sizes.size(); ++s) {
    plan.set_first_tile.push_back(
        static_cast<std::uint32_t>(plan.tiles.size()));
    const std::uint32_t end = start + schedule.set_sizes[s];
    std::uint32_t next = start;
    while (next < end) {
      const auto tile = static_cast<std::uint32_t>(plan.tiles.size());
      const std::uint32_t first = next;
      std::array<std::uint32_t, kBanks> bank_count{};
      staged.clear();
      // Whole warps while they fit the threads and the slots; the first
      // always fits (see kTileSlots).
      while (next < end && next - first < kTileThreads) {
        const std::uint32_t warp_end = std::min(next + kBanks, end);
        fresh.clear();
        std::array<std::uint32_t, kBanks> counts = bank_count;
        for (std::uint32_t i = next; i < warp_end; ++i) {
          for (int k = 0; k < 3; ++k) {
            const std::uint32_t p = schedule.triplets[i][k];
            if (owner[p] == tile ||
                std::find(fresh.begin(), fresh.end(), p) != fresh.end()) {
              continue;
            }
            fresh.push_back(p);
            ++counts[p % kBanks];
          }
        }
        const std::uint32_t rows =
            *std::max_element(counts.begin(), counts.end());
        if (next != first && rows * kBanks > kTileSlots) break;
        for (const std::uint32_t p : fresh) owner[p] = tile;
        staged.insert(staged.end(), fresh.begin(), fresh.end());
        bank_count = counts;
        next = warp_end;
      }
      // Slot row * 32 + p mod 32: rows fill per bank in staging order.
      const std::uint32_t rows =
          *std::max_element(bank_count.begin(), bank_count.end());
      const std::uint32_t slots = rows * kBanks;
      const auto first_slot =
          static_cast<std::uint32_t>(plan.slot_particles.size());
      plan.slot_particles.resize(plan.slot_particles.size() + slots,
                                 kNoParticle);
      std::array<std::uint32_t, kBanks> next_row{};
      for (const std::uint32_t p : staged) {
        const std::uint32_t bank = p % kBanks;
        slot[p] = next_row[bank]++ * kBanks + bank;
        plan.slot_particles[first_slot + slot[p]] = p;
      }
      for (std::uint32_t i = first; i < next; ++i) {
        for (int k = 0; k < 3; ++k) {
          plan.triplets[i][k] = slot[schedule.triplets[i][k]];
        }
      }
      plan.tiles.push_back({first, next - first, first_slot, slots});
      plan.set_slots[s] = std::max(plan.set_slots[s], slots);
    }
    start = end;
  }
  plan.set_first_tile.push_back(static_cast<std::uint32_t>(plan.tiles.size()));
  return plan;
}

}  // namespace adj::triplet_collide::tiled

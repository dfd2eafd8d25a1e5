#pragma once

// cuda_shared_tiled's staging plan (private to the family), built on the
// host from a warp schedule once, as the schedule itself is: plain C++, so
// that its layout is tested without a GPU.
//
// Each set of the schedule is cut into tiles of whole warps (32 triplets
// from the set's start, the bank model's chunks), at most kTileThreads
// triplets each. A set's triplets share no particle, so its tiles are
// independent: one block per tile stages the particles its triplets name
// into shared memory, runs them, and writes them back. A particle p gets a
// tile-local slot congruent to p mod 32 (the next free row of its bank), so
// the shared-memory loads and stores of the collision see bank p mod 32,
// the bank model every warp scheduler optimises (bank_model.h): a
// schedule's replays are what the kernel's shared accesses pay.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithms/common/mesh.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_collide::tiled {

inline constexpr std::uint32_t kBanks = 32;
// Threads per block, one triplet each: 8 warps, so that a set of the 250^2
// grid (about 18,000 triplets) spreads over some 70 blocks.
inline constexpr std::uint32_t kTileThreads = 256;
// Slots per tile (x, y, z, invMass: 16 bytes each, 48 KiB, what a block may
// have without opting in). One warp's 96 particles fit even if all fall on
// one bank (96 rows of 32), so every tile holds at least one warp.
inline constexpr std::uint32_t kTileSlots = 3072;
// A slot no particle is staged into (a hole in its bank's rows).
inline constexpr std::uint32_t kNoParticle = 0xffffffffu;

struct Tile {
  std::uint32_t first_triplet;  // schedule index; a warp boundary of its set
  std::uint32_t triplets;       // at most kTileThreads
  std::uint32_t first_slot;     // into Plan::slot_particles
  std::uint32_t slots;          // a multiple of kBanks, at most kTileSlots
};

struct Plan {
  // The schedule's triplets with each particle replaced by its tile-local
  // slot (weight index kept).
  std::vector<Triplet> triplets;
  std::vector<Tile> tiles;
  // Set s's tiles are [set_first_tile[s], set_first_tile[s + 1]).
  std::vector<std::uint32_t> set_first_tile;
  // The most slots of any tile of set s (its launch's shared memory).
  std::vector<std::uint32_t> set_slots;
  // Per tile, its slots' particles (kNoParticle for holes).
  std::vector<std::uint32_t> slot_particles;
};

// The plan of a warp schedule over `particle_count` particles (dummies
// included); the caller checked the input (Check, CheckWarpLayout). A
// particle named twice in one set (a schedule that breaks its contract)
// gets one slot, so the result differs from serial as in cuda_shared,
// never an out-of-bounds access.
Plan MakePlan(const triplet_schedule::Schedule& schedule,
              std::size_t particle_count);

}  // namespace adj::triplet_collide::tiled

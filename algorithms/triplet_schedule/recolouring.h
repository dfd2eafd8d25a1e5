#pragma once

// Internal to the family: moves between colours that lower the count or
// spread the banks, every colour still an independent set.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"

namespace adj::triplet_schedule {

// Lowers the colour count toward `floor` (at least 1) while the top colour
// can be emptied: each of its triplets moves to a lower colour no
// neighbour holds, or, where exactly one neighbour u blocks a lower colour,
// u moves to a third colour first (a one-step Kempe swap), or, with
// `kempe_chains`, after a Kempe interchange of two lower colours (chains
// of at most 256 triplets, at most one visit per input triplet over the
// call). Stops at the first top colour it cannot empty (some of its
// triplets possibly moved, every colour still an independent set);
// returns the new count (colours stay 0..count-1).
std::uint32_t RemoveColours(std::span<const Triplet> triplets,
                            const triangle_adjacency::Adjacency& adjacency,
                            std::vector<std::uint32_t>& colour,
                            std::uint32_t colours, std::uint32_t floor,
                            bool kempe_chains = false);
// Moves triplets between colours (only to colours none of their neighbours
// holds, so every colour stays an independent set and the count stays) to
// spread each colour's triplets over the banks: a colour whose slot-0
// particles fall on 8 banks cannot make warps of 32 without 4-way
// conflicts, and greedy colouring of a regular mesh makes such colours.
// A triplet's crowding in colour c is, summed over its slots, how far its
// bank's count in c exceeds c's size / 32 (times 32); each triplet, in
// index order, moves to the free colour where it is least crowded (the
// lowest such colour on ties), if less than where it is; a triplet whose
// crowding where it is is at most 0 (no more crowded than the colour's
// average) stays. Passes over every triplet while the last moved at
// least 1 % of them, at most `passes`.
void SpreadBanks(std::span<const Triplet> triplets,
                 const triangle_adjacency::Adjacency& adjacency,
                 std::size_t particle_count, std::vector<std::uint32_t>& colour,
                 std::uint32_t colours, int passes);

}  // namespace adj::triplet_schedule

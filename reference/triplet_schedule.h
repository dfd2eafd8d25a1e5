#pragma once

// The oracle for triplet_schedule: validators and quality metrics written
// from the definitions (docs/sources/nvcloth-triplet-scheduler.md), with
// sorting and plain loops, sharing nothing with the schedulers.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "algorithms/common/mesh.h"

namespace adj::reference {

// The checks return "" for a valid schedule, else the first problem found,
// in words that name the set, batch, output position, particle and triplets
// involved. They look in this order, so that one defect yields one message
// about its cause rather than about a knock-on effect: the arguments (width,
// input indices), the counts (set sizes against the input, padding, output
// size), the layout (real triplets and dummies where they belong), the
// multiset of triplets, and last the conflicts inside batches or sets.
//
// An input triplet naming a particle >= particle_count is reported as a
// problem of the input: nothing can be scheduled against it.

// NvCloth's simd layout (current and legacy): for each set s, set_sizes[s]
// real triplets followed by exactly (width - set_sizes[s] % width) % width
// dummies (N, N+1, N+2, 0) with N = particle_count; the real triplets are
// the input permuted (all four fields); every aligned group of `width`
// output entries (a batch) has no particle below N in two different
// triplets. A triplet may repeat its own particle; empty sets are allowed.
std::string CheckSimdSchedule(std::span<const Triplet> input,
                              std::size_t particle_count, unsigned width,
                              std::span<const Triplet> output,
                              std::span<const std::uint32_t> set_sizes,
                              std::uint32_t padding);

// NvCloth's warp layout: the input permuted, no padding, cut into
// consecutive sets of set_sizes[s] triplets each of which is an independent
// set (no particle in two different triplets of the set). A triplet may
// repeat its own particle; empty sets are allowed.
std::string CheckWarpSchedule(std::span<const Triplet> input,
                              std::size_t particle_count,
                              std::span<const Triplet> output,
                              std::span<const std::uint32_t> set_sizes);

// The padding a simd schedule with these set sizes carries at `width`:
// sum over sets of (width - size % width) % width. 0 when width is 0.
std::uint64_t SimdPadding(std::span<const std::uint32_t> set_sizes,
                          unsigned width);

// NvCloth's maxAdjacentCount: the largest number of triplet slots that name
// one particle, so (a, a, b) counts 2 for a. Indices >= particle_count are
// not particles and are left out (the checks report them).
std::uint64_t MaxAdjacentCount(std::span<const Triplet> input,
                               std::size_t particle_count);

// The quality numbers of docs/triplet_schedule.md. Bank figures follow
// NvCloth's calculateNumReplays (docs/sources/nvcloth-triplet-scheduler.md): 32
// banks (bank = p & 31) and 32-lane chunks from each set's start, whatever the
// schedule's width.
struct ScheduleMetrics {
  std::uint64_t sets = 0;     // set_sizes.size()
  std::uint64_t max_adj = 0;  // MaxAdjacentCount(input): warp's colour bound
  std::uint64_t set_min = 0;  // over set_sizes; 0 when there are no sets
  std::uint64_t set_max = 0;
  double set_mean = 0;
  std::uint64_t padding = 0;  // dummies, as the schedule reports them
  double padding_ratio = 0;   // padding / input size; 0 for no input
  // Sum over chunks and slots k of the most chunk triplets whose slot-k
  // particle falls in one bank: serialised shared-memory loads.
  std::uint64_t replays = 0;
  std::uint64_t ideal_replays = 0;  // 3 per chunk: no conflicts at all
  // Lanes of each set's last warp that have no triplet.
  std::uint64_t idle_lanes = 0;

  friend bool operator==(const ScheduleMetrics&,
                         const ScheduleMetrics&) = default;
};

// Metrics of a schedule that passed its check (on anything else it stays in
// bounds but the numbers mean little). When padding > 0 the layout is the
// simd one and each set's (width - size % width) % width dummies are
// skipped; when padding == 0 sets are back to back and width is unused
// (pass the schedule's width either way).
ScheduleMetrics MeasureSchedule(std::span<const Triplet> input,
                                std::size_t particle_count, unsigned width,
                                std::span<const Triplet> output,
                                std::span<const std::uint32_t> set_sizes,
                                std::uint32_t padding);

// A floor under the replays of every warp schedule of `input`, whatever its
// sets and order: a chunk's slot replays at least as often as the chunk has
// triplets whose particle in that slot falls in bank b, so summed over
// chunks and slots, at least the loads of bank b over the whole input (the
// slots of all triplets whose particle is in bank b). The most such loads
// on one bank. (ideal_replays, 3 per chunk, is the other floor.)
std::uint64_t ReplaysLowerBound(std::span<const Triplet> input);

// The least replays / ideal_replays any warp schedule of `input` into at
// most `max_sets` sets can reach, from ReplaysLowerBound: the sets' chunks
// number at most sum over sets of (size + 31) / 32 <= (T + 31 max_sets) /
// 32, so ideal_replays is at most 3 floor((T + 31 max_sets) / 32). At
// least 1 (every chunk replays at least ideally); 0 for empty input.
double ReplayRatioLowerBound(std::span<const Triplet> input,
                             std::uint64_t max_sets);

}  // namespace adj::reference

#pragma once

// triplet_schedule's verifier: a schedule against the reference validator
// (a schedule is judged valid, not compared with one expected order), and
// its quality metrics, with the bounds no schedule of an input can beat.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "algorithms/common/mesh.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "reference/triplet_schedule.h"

namespace adj::checks::triplet_schedule {

enum class Layout {
  kSimd,  // batches of `width` lanes, each set padded to a multiple of width
  kWarp,  // independent sets back to back, no padding
};

// "" when `got` is a valid schedule of `input` in `layout` at `width` (built
// for that width; a warp schedule carries no padding), else the first
// problem in words (reference::CheckSimdSchedule / CheckWarpSchedule say
// which problem comes first).
std::string FirstProblem(std::span<const Triplet> input,
                         std::size_t particle_count, Layout layout,
                         unsigned width,
                         const adj::triplet_schedule::Schedule& got);

// The same for independent sets given as an order and set sizes (what the
// schedulers' building blocks produce before they become a Schedule).
std::string FirstProblemInSets(std::span<const Triplet> input,
                               std::size_t particle_count,
                               std::span<const Triplet> order,
                               std::span<const std::uint32_t> set_sizes);

// Quality numbers (docs/triplet_schedule.md) of a schedule that
// passed FirstProblem: sets, padding, bank replays and idle lanes.
using Metrics = reference::ScheduleMetrics;
Metrics MetricsOf(std::span<const Triplet> input, std::size_t particle_count,
                  const adj::triplet_schedule::Schedule& got);
// The same for an order and set sizes, at `width` (padding: the simd
// layout's dummies per set; 0 for sets back to back).
Metrics MetricsOf(std::span<const Triplet> input, std::size_t particle_count,
                  unsigned width, std::span<const Triplet> order,
                  std::span<const std::uint32_t> set_sizes,
                  std::uint32_t padding);

// What no warp schedule of `input` can beat (reference/triplet_schedule.h
// derives each): the replays whatever the sets, and replays / ideal in at
// most max_adjacent + 1 sets (what greedy colouring guarantees).
struct Bounds {
  std::uint64_t max_adjacent = 0;  // NvCloth's maxAdjacentCount
  std::uint64_t replays = 0;
  double replay_ratio = 0;
};
Bounds BoundsOf(std::span<const Triplet> input, std::size_t particle_count);

}  // namespace adj::checks::triplet_schedule

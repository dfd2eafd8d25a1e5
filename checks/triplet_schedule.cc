#include "checks/triplet_schedule.h"

namespace adj::checks::triplet_schedule {

std::string FirstProblem(std::span<const Triplet> input,
                         std::size_t particle_count, Layout layout,
                         unsigned width,
                         const adj::triplet_schedule::Schedule& got) {
  if (got.width != width) {
    return "built for width " + std::to_string(got.width) + ", asked for " +
           std::to_string(width);
  }
  if (layout == Layout::kSimd) {
    return reference::CheckSimdSchedule(
        input, particle_count, width, got.triplets, got.set_sizes, got.padding);
  }
  if (got.padding != 0) {
    return "padding " + std::to_string(got.padding) + " in a warp schedule";
  }
  return FirstProblemInSets(input, particle_count, got.triplets, got.set_sizes);
}

std::string FirstProblemInSets(std::span<const Triplet> input,
                               std::size_t particle_count,
                               std::span<const Triplet> order,
                               std::span<const std::uint32_t> set_sizes) {
  return reference::CheckWarpSchedule(input, particle_count, order, set_sizes);
}

Metrics MetricsOf(std::span<const Triplet> input, std::size_t particle_count,
                  const adj::triplet_schedule::Schedule& got) {
  return MetricsOf(input, particle_count, got.width, got.triplets,
                   got.set_sizes, got.padding);
}

Metrics MetricsOf(std::span<const Triplet> input, std::size_t particle_count,
                  unsigned width, std::span<const Triplet> order,
                  std::span<const std::uint32_t> set_sizes,
                  std::uint32_t padding) {
  return reference::MeasureSchedule(input, particle_count, width, order,
                                    set_sizes, padding);
}

Bounds BoundsOf(std::span<const Triplet> input, std::size_t particle_count) {
  const std::uint64_t max_adjacent =
      reference::MaxAdjacentCount(input, particle_count);
  return {max_adjacent, reference::ReplaysLowerBound(input),
          reference::ReplayRatioLowerBound(input, max_adjacent + 1)};
}

}  // namespace adj::checks::triplet_schedule

// triplet_schedule's outside check: a schedule (an order and its set
// sizes) judged valid by the reference validator through
// checks::triplet_schedule, as the suite's schedules are; a valid schedule
// is not compared with one expected order. Its quality beside the bounds
// no schedule of the input can beat.
#include <string>
#include <vector>

#include "checks/triplet_schedule.h"
#include "registry/array_views.h"
#include "registry/outside_families.h"

namespace adj::registry {
namespace {

OutsideVerdict CheckTripletScheduleOutput(const Arrays& inputs,
                                          const Arrays& outputs,
                                          const Parameters& parameters) {
  const Array* input_array = Find(inputs, "triplets");
  const Array* order_array = Find(outputs, "order");
  const Array* sizes_array = Find(outputs, "set_sizes");
  if (input_array == nullptr || order_array == nullptr ||
      sizes_array == nullptr) {
    throw CheckInputError(
        "triplet_schedule: the input triplets and the "
        "outputs order and set_sizes are required");
  }
  const auto particles = static_cast<std::size_t>(
      WholeParameterOf(parameters, "particles", 0, 0xffffffffu));
  const auto width =
      static_cast<unsigned>(WholeParameterOf(parameters, "width", 1, 1024));
  const bool simd = WholeParameterOf(parameters, "simd", 0, 1) == 1;
  const std::vector<Triplet> input =
      TripletsOf(*input_array, "triplets", particles);
  triplet_schedule::Schedule got;
  // Padding: dummies whose corners need not name a particle.
  got.triplets = TripletsOf(*order_array, "order", std::uint64_t{1} << 32);
  got.set_sizes = IndicesOf(*sizes_array, "set_sizes", std::nullopt);
  got.width = width;
  got.padding = static_cast<std::uint32_t>(
      got.triplets.size() > input.size() ? got.triplets.size() - input.size()
                                         : 0);
  const auto layout = simd ? checks::triplet_schedule::Layout::kSimd
                           : checks::triplet_schedule::Layout::kWarp;
  OutsideVerdict verdict;
  verdict.scope = std::string("the reference validator, ") +
                  (simd ? "SIMD layout (each set padded to a multiple of "
                        : "warp layout (sets back to back, ") +
                  "width " + std::to_string(width) + ")";
  verdict.difference = checks::triplet_schedule::FirstProblem(
      input, particles, layout, width, got);
  const auto bounds = checks::triplet_schedule::BoundsOf(input, particles);
  verdict.statistics = {{"max_adjacent", bounds.max_adjacent},
                        {"replays_bound", bounds.replays}};
  if (verdict.difference.empty()) {
    const auto metrics =
        checks::triplet_schedule::MetricsOf(input, particles, got);
    verdict.statistics.insert(verdict.statistics.end(),
                              {{"sets", metrics.sets},
                               {"set_min", metrics.set_min},
                               {"set_max", metrics.set_max},
                               {"padding", metrics.padding},
                               {"padding_ratio", metrics.padding_ratio},
                               {"replays", metrics.replays},
                               {"ideal_replays", metrics.ideal_replays},
                               {"idle_lanes", metrics.idle_lanes}});
  }
  return verdict;
}

}  // namespace

OutsideCheck TripletScheduleOutsideCheck() {
  return {"triplet_schedule",
          "triplets (T, 4) of (p0, p1, p2, weight) or (T, 3), and the "
          "parameters particles (P), width (lanes or warp width) and simd (1: "
          "each set padded to a multiple of width, dummies included in the "
          "order; 0: sets back to back)",
          "order (S, 4) or (S, 3): the triplets set by set, and set_sizes "
          "(K,): triplets per set, padding excluded; judged valid, not "
          "compared with one expected order",
          {"triplets"},
          {"order", "set_sizes"},
          {"particles", "width", "simd"},
          "triplets",
          "order",
          &CheckTripletScheduleOutput};
}

}  // namespace adj::registry

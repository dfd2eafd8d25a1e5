// adjacent.triplet_schedule: conflict-free orders of constraint triplets
// for SIMD lanes (simd) and CUDA warps (warp), by any scheduler of the
// family's two tables, with the schedule's checked validity and metrics.
#include "algorithms/triplet_schedule/triplet_schedule.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checks/triplet_schedule.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

// The scheduler, then the reference validator and the metrics, with a
// chance for Ctrl-C between the three passes.
ScheduleObject Run(std::span<const triplet_schedule::Variant> table,
                   checks::triplet_schedule::Layout layout,
                   nb::handle triplets_object, std::size_t particle_count,
                   unsigned width, const std::string& name,
                   std::string_view where) {
  const triplet_schedule::Variant& variant =
      PickVariant(table, "triplet_schedule", name);
  const IntegerArray<std::uint32_t> array =
      ToIntegers<std::uint32_t>(triplets_object, where, "triplets", 4);
  const std::span<const Triplet> triplets = array.Rows<4>();
  ScheduleObject out;
  checks::triplet_schedule::Metrics metrics;
  {
    nb::gil_scoped_release release;
    Interrupts interrupts;
    variant.run(triplets, particle_count, width, out.schedule);
    interrupts.Poll();
    out.problem = checks::triplet_schedule::FirstProblem(
        triplets, particle_count, layout, width, out.schedule);
    interrupts.Poll();
    if (out.problem.empty()) {
      metrics = checks::triplet_schedule::MetricsOf(triplets, particle_count,
                                                    out.schedule);
    }
  }
  if (out.problem.empty()) {
    out.metrics["sets"] = metrics.sets;
    out.metrics["max_adj"] = metrics.max_adj;
    out.metrics["set_min"] = metrics.set_min;
    out.metrics["set_mean"] = metrics.set_mean;
    out.metrics["set_max"] = metrics.set_max;
    out.metrics["padding"] = metrics.padding;
    out.metrics["padding_ratio"] = metrics.padding_ratio;
    out.metrics["replays"] = metrics.replays;
    out.metrics["ideal_replays"] = metrics.ideal_replays;
    out.metrics["idle_lanes"] = metrics.idle_lanes;
  }
  return out;
}

std::vector<std::string> Names(
    std::span<const triplet_schedule::Variant> table) {
  std::vector<std::string> names;
  for (const auto& row : table) names.emplace_back(row.name);
  return names;
}

}  // namespace

void BindTripletSchedule(nb::module_& parent) {
  nb::module_ m = parent.def_submodule(
      "triplet_schedule",
      "Conflict-free triplet schedules (docs/triplet_schedule.md).");
  nb::class_<ScheduleObject>(m, "Schedule",
                             "The input permuted into sets (simd: each "
                             "padded with dummies to a multiple of the "
                             "width).")
      .def_prop_ro(
          "triplets",
          [](const ScheduleObject& s) {
            const auto& t = s.schedule.triplets;
            return nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<2>>(
                t.empty() ? nullptr : t[0].data(), {t.size(), 4});
          },
          nb::rv_policy::reference_internal,
          "(m, 4) uint32, a read-only view into the schedule")
      .def_prop_ro(
          "set_sizes",
          [](const ScheduleObject& s) {
            const auto& sizes = s.schedule.set_sizes;
            return nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>>(
                sizes.data(), {sizes.size()});
          },
          nb::rv_policy::reference_internal,
          "triplets per set, padding excluded")
      .def_prop_ro("padding",
                   [](const ScheduleObject& s) { return s.schedule.padding; })
      .def_prop_ro("width",
                   [](const ScheduleObject& s) { return s.schedule.width; })
      .def_prop_ro(
          "index_bits",
          [](const ScheduleObject& s) { return s.schedule.index_bits; },
          "16 where the scheduler writes NvCloth's 16-bit indices")
      .def_prop_ro("threads",
                   [](const ScheduleObject& s) { return s.schedule.threads; })
      .def_ro("problem", &ScheduleObject::problem,
              "'' when the reference validator accepts the schedule, else "
              "its first problem")
      .def_ro("metrics", &ScheduleObject::metrics,
              "sets, max_adj, set_min/mean/max, padding, padding_ratio, "
              "replays, ideal_replays, idle_lanes (empty when invalid)");
  m.def(
      "simd",
      [](nb::handle triplets, std::size_t particle_count, unsigned width,
         const std::string& scheduler) {
        return Run(triplet_schedule::SimdSchedulers(),
                   checks::triplet_schedule::Layout::kSimd, triplets,
                   particle_count, width, scheduler, "triplet_schedule.simd");
      },
      nb::arg("triplets"), nb::arg("particle_count"), nb::arg("width") = 4,
      nb::arg("scheduler") = "nvcloth_simd",
      "A schedule for SIMD lanes of `width` of `triplets` (m x 4: three "
      "particles and a weight index).");
  m.def(
      "warp",
      [](nb::handle triplets, std::size_t particle_count, unsigned width,
         const std::string& scheduler) {
        return Run(triplet_schedule::WarpSchedulers(),
                   checks::triplet_schedule::Layout::kWarp, triplets,
                   particle_count, width, scheduler, "triplet_schedule.warp");
      },
      nb::arg("triplets"), nb::arg("particle_count"), nb::arg("width") = 32,
      nb::arg("scheduler") = "nvcloth_warp",
      "Independent sets for CUDA warps of `width` (16 or 32) of `triplets` "
      "(m x 4).");
  m.def(
      "simd_schedulers",
      [] { return Names(triplet_schedule::SimdSchedulers()); },
      "The names simd() takes (its table's rows).");
  m.def(
      "warp_schedulers",
      [] { return Names(triplet_schedule::WarpSchedulers()); },
      "The names warp() takes (its table's rows).");
}

}  // namespace adj::python

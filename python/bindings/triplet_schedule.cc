// adjacent.triplet_schedule: conflict-free orders of constraint triplets
// for SIMD lanes (simd) and CUDA warps (warp), by any scheduler of the
// family's two tables, with the schedule's checked validity and metrics.
#include "algorithms/triplet_schedule/triplet_schedule.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "checks/triplet_schedule.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

struct Schedule {
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<2>> triplets;
  nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> set_sizes;
  std::uint32_t padding;
  unsigned width;
  unsigned index_bits;
  int threads;
  std::string problem;
  nb::dict metrics;
};

// (m, 4) uint32: p0, p1, p2 and the weight index, read in place when
// C-contiguous (the suite's Triplet layout).
using TripletArray = nb::ndarray<const std::uint32_t, nb::shape<-1, 4>,
                                 nb::c_contig, nb::device::cpu>;

Schedule Run(std::span<const triplet_schedule::Variant> table,
             checks::triplet_schedule::Layout layout, const TripletArray& array,
             std::size_t particle_count, unsigned width,
             const std::string& name) {
  const triplet_schedule::Variant& variant =
      PickVariant(table, "triplet_schedule", name);
  static_assert(sizeof(Triplet) == 4 * sizeof(std::uint32_t));
  const std::span<const Triplet> triplets(
      reinterpret_cast<const Triplet*>(array.data()), array.shape(0));
  triplet_schedule::Schedule out;
  std::string problem;
  checks::triplet_schedule::Metrics metrics;
  {
    nb::gil_scoped_release release;
    variant.run(triplets, particle_count, width, out);
    problem = checks::triplet_schedule::FirstProblem(triplets, particle_count,
                                                     layout, width, out);
    if (problem.empty()) {
      metrics =
          checks::triplet_schedule::MetricsOf(triplets, particle_count, out);
    }
  }
  nb::dict numbers;
  if (problem.empty()) {
    numbers["sets"] = metrics.sets;
    numbers["max_adj"] = metrics.max_adj;
    numbers["set_min"] = metrics.set_min;
    numbers["set_mean"] = metrics.set_mean;
    numbers["set_max"] = metrics.set_max;
    numbers["padding"] = metrics.padding;
    numbers["padding_ratio"] = metrics.padding_ratio;
    numbers["replays"] = metrics.replays;
    numbers["ideal_replays"] = metrics.ideal_replays;
    numbers["idle_lanes"] = metrics.idle_lanes;
  }
  // The schedule's triplets are 4 contiguous uint32 each: taken over as
  // they are.
  const std::size_t rows = out.triplets.size();
  auto* owned = new std::vector<Triplet>(std::move(out.triplets));
  nb::capsule owner(owned, [](void* p) noexcept {
    delete static_cast<std::vector<Triplet>*>(p);
  });
  return {nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<2>>(
              reinterpret_cast<const std::uint32_t*>(owned->data()), {rows, 4},
              owner),
          ToNumpy(std::move(out.set_sizes)),
          out.padding,
          out.width,
          out.index_bits,
          out.threads,
          problem,
          numbers};
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
  nb::class_<Schedule>(m, "Schedule",
                       "The input permuted into sets (simd: each padded "
                       "with dummies to a multiple of the width).")
      .def_prop_ro(
          "triplets", [](const Schedule& s) { return s.triplets; },
          nb::rv_policy::automatic)
      .def_prop_ro(
          "set_sizes", [](const Schedule& s) { return s.set_sizes; },
          nb::rv_policy::automatic)
      .def_ro("padding", &Schedule::padding)
      .def_ro("width", &Schedule::width)
      .def_ro("index_bits", &Schedule::index_bits,
              "16 where the scheduler writes NvCloth's 16-bit indices")
      .def_ro("threads", &Schedule::threads)
      .def_ro("problem", &Schedule::problem,
              "'' when the reference validator accepts the schedule, else "
              "its first problem")
      .def_ro("metrics", &Schedule::metrics,
              "sets, max_adj, set_min/mean/max, padding, padding_ratio, "
              "replays, ideal_replays, idle_lanes (empty when invalid)");
  m.def(
      "simd",
      [](const TripletArray& triplets, std::size_t particle_count,
         unsigned width, const std::string& scheduler) {
        return Run(triplet_schedule::SimdSchedulers(),
                   checks::triplet_schedule::Layout::kSimd, triplets,
                   particle_count, width, scheduler);
      },
      nb::arg("triplets"), nb::arg("particle_count"), nb::arg("width") = 4,
      nb::arg("scheduler") = "nvcloth_simd",
      "A schedule for SIMD lanes of `width` of `triplets` (m x 4: three "
      "particles and a weight index).");
  m.def(
      "warp",
      [](const TripletArray& triplets, std::size_t particle_count,
         unsigned width, const std::string& scheduler) {
        return Run(triplet_schedule::WarpSchedulers(),
                   checks::triplet_schedule::Layout::kWarp, triplets,
                   particle_count, width, scheduler);
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

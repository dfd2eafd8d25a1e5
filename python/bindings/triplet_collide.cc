// adjacent.triplet_collide: NvCloth's virtual-particle collision pass over a
// triplet schedule, particles updated in place in the caller's array, and
// the pass checked against the oracle's pass over the same order on
// request.
#include "algorithms/triplet_collide/triplet_collide.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "checks/triplet_collide.h"
#include "python/bindings/bindings.h"

namespace adj::python {
namespace {

namespace tc = adj::triplet_collide;

// (n, 4) float32, C-contiguous: NvCloth's float4 per particle or weight,
// read and written in place.
using Float4Array =
    nb::ndarray<float, nb::shape<-1, 4>, nb::c_contig, nb::device::cpu>;
using ConstFloat4Array =
    nb::ndarray<const float, nb::shape<-1, 4>, nb::c_contig, nb::device::cpu>;
// Spheres (s, 4): centre, radius. Capsules (c, 7): a, b, radius. Any float
// dtype and strides: copied into the family's Shapes.
using SphereArray = nb::ndarray<const float, nb::shape<-1, 4>, nb::device::cpu>;
using CapsuleArray =
    nb::ndarray<const float, nb::shape<-1, 7>, nb::device::cpu>;

static_assert(sizeof(tc::Particle) == 4 * sizeof(float));

std::span<tc::Particle> AsParticles(Float4Array& array) {
  return {reinterpret_cast<tc::Particle*>(array.data()), array.shape(0)};
}
std::span<const tc::Weight> AsWeights(const ConstFloat4Array& array) {
  return {reinterpret_cast<const tc::Weight*>(array.data()), array.shape(0)};
}

tc::Shapes ToShapes(const std::optional<SphereArray>& spheres,
                    const std::optional<CapsuleArray>& capsules) {
  tc::Shapes shapes;
  if (spheres) {
    const auto view = spheres->view();
    for (std::size_t i = 0; i < spheres->shape(0); ++i) {
      shapes.spheres.push_back(
          {{view(i, 0), view(i, 1), view(i, 2)}, view(i, 3)});
    }
  }
  if (capsules) {
    const auto view = capsules->view();
    for (std::size_t i = 0; i < capsules->shape(0); ++i) {
      shapes.capsules.push_back({{view(i, 0), view(i, 1), view(i, 2)},
                                 {view(i, 3), view(i, 4), view(i, 5)},
                                 view(i, 6)});
    }
  }
  return shapes;
}

std::optional<std::string> Collide(Float4Array particles,
                                   const ConstFloat4Array& weights,
                                   const ScheduleObject& schedule,
                                   const std::optional<SphereArray>& spheres,
                                   const std::optional<CapsuleArray>& capsules,
                                   const std::string& name, bool check) {
  const tc::Variant& variant =
      PickVariant(tc::Variants(), "triplet_collide", name);
  const tc::Shapes shapes = ToShapes(spheres, capsules);
  const std::span<tc::Particle> in_place = AsParticles(particles);
  const std::span<const tc::Weight> weight_rows = AsWeights(weights);
  std::string difference;
  {
    nb::gil_scoped_release release;
    if (!check) {
      variant.run(schedule.schedule, weight_rows, shapes, in_place);
      return std::nullopt;
    }
    // Ctrl-C between the passes leaves the caller's particles as they
    // were: the result is copied in last.
    Interrupts interrupts;
    const checks::triplet_collide::Particles before(in_place.begin(),
                                                    in_place.end());
    // The oracle reads the input unchecked: the variant's own check runs
    // first, on a copy, so that bad input is refused with its message.
    checks::triplet_collide::Particles got = before;
    variant.run(schedule.schedule, weight_rows, shapes, got);
    interrupts.Poll();
    const checks::triplet_collide::Expected expected =
        checks::triplet_collide::ExpectedOf(schedule.schedule.triplets,
                                            weight_rows, shapes, before);
    interrupts.Poll();
    difference = checks::triplet_collide::FirstDifference(
        schedule.schedule.triplets, weight_rows, shapes, before, expected, got,
        checks::triplet_collide::ExactnessOf(
            variant, schedule.schedule.triplets.size()));
    std::copy(got.begin(), got.end(), in_place.begin());
  }
  return difference;
}

std::pair<std::string, unsigned> ConsumesOf(const std::string& name) {
  const tc::Variant* variant = FindVariant(tc::Variants(), name);
  // What a row consumes is known where it cannot run too: PickVariant only
  // for its message listing the names.
  const tc::Consumes consumes =
      tc::ConsumesOf(variant != nullptr ? *variant
                                        : PickVariant(tc::Variants(),
                                                      "triplet_collide", name));
  switch (consumes.order) {
    case tc::Order::kSimdBatches:
      return {"simd", consumes.width};
    case tc::Order::kWarpSets:
      return {"warp", consumes.width};
    case tc::Order::kAny:
      break;
  }
  return {"any", consumes.width};
}

nb::ndarray<nb::numpy, float, nb::shape<-1, 4>> WithDummies(
    const ConstFloat4Array& particles,
    const std::optional<SphereArray>& spheres,
    const std::optional<CapsuleArray>& capsules) {
  const auto* rows = reinterpret_cast<const tc::Particle*>(particles.data());
  std::vector<tc::Particle> out(rows, rows + particles.shape(0));
  tc::AppendDummies(out, ToShapes(spheres, capsules));
  // Writable: the caller's particles, which collide() updates in place.
  return ToNumpyRows<true>(std::move(out));
}

}  // namespace

void BindTripletCollide(nb::module_& parent) {
  nb::module_ m = parent.def_submodule(
      "triplet_collide",
      "NvCloth's virtual-particle collision pass over a triplet schedule "
      "(docs/triplet_collide.md).");
  // noconvert: a converted copy would take the in-place update away from
  // the caller's array.
  m.def("collide", &Collide, nb::arg("particles").noconvert(),
        nb::arg("weights"), nb::arg("schedule"),
        nb::arg("spheres") = nb::none(), nb::arg("capsules") = nb::none(),
        nb::arg("variant") = "serial", nb::arg("check") = false,
        "One collision pass over `schedule` (triplet_schedule.simd/warp, or "
        "input_order), `particles` ((n + 3, 4) float32: x, y, z, invMass; "
        "the last 3 the dummies, see with_dummies) updated in place. "
        "`weights` (k, 4) float32: w0, w1, w2, 1/|w|^2 (make_weight); "
        "`spheres` (s, 4): centre, radius; `capsules` (c, 7): a, b, radius. "
        "The variant must consume the schedule's layout (consumes()). "
        "check=True also runs the oracle's pass over the same order and "
        "returns '' when the variant's result agrees with it (bit for bit, "
        "or within the interleaving bound for atomic_unscheduled), else the "
        "first difference; check=False returns None.");
  m.def(
      "input_order",
      [](nb::handle triplets_object) {
        const IntegerArray<std::uint32_t> triplets = ToIntegers<std::uint32_t>(
            triplets_object, "triplet_collide.input_order", "triplets", 4);
        ScheduleObject out;
        out.schedule = tc::InputOrder(triplets.Rows<4>());
        return out;
      },
      nb::arg("triplets"),
      "`triplets` (m, 4) uint32 in their own order as one set: the schedule "
      "the 'any'-order variants (serial, atomic_unscheduled) take.");
  m.def("consumes", &ConsumesOf, nb::arg("variant"),
        "('any' | 'simd' | 'warp', width): the schedule layout a variant "
        "consumes; width 0: any (simd_native's is native_simd_width()).");
  m.def("native_simd_width", &tc::NativeSimdWidth,
        "Float lanes of the Highway target chosen here: the width of "
        "simd_native's schedule.");
  m.def(
      "make_weight",
      [](float w0, float w1, float w2) {
        const tc::Weight w = tc::MakeWeight(w0, w1, w2);
        return std::vector<float>(w.begin(), w.end());
      },
      nb::arg("w0"), nb::arg("w1"), nb::arg("w2"),
      "[w0, w1, w2, 1 / (w0^2 + w1^2 + w2^2)] as the pass reads a weight.");
  m.def("with_dummies", &WithDummies, nb::arg("particles"),
        nb::arg("spheres") = nb::none(), nb::arg("capsules") = nb::none(),
        "A copy of `particles` (n, 4) with the 3 dummy particles (invMass 0) "
        "appended outside every shape: what simd schedules pad with.");
  m.attr("centroid_weight") = std::vector<float>(tc::kCentroidWeight.begin(),
                                                 tc::kCentroidWeight.end());
}

}  // namespace adj::python

// adjacent.fracture: the per-frame cluster-topology update, a simulation
// kept in C++ between frames, by any row of the family's table; each frame
// can be checked against the oracle (checks/fracture: the frame recomputed
// from scratch).
#include "algorithms/fracture/fracture.h"

#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>

#include <array>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/common/csr.h"
#include "checks/fracture.h"
#include "python/bindings/bindings.h"
#include "scenes/solids.h"

namespace adj::python {
namespace {

// A running simulation is one object that each frame changes: Python
// threads sharing it take turns (its lock), a frame and the reads of its
// state never running at once.
struct Simulation {
  std::unique_ptr<fracture::Simulation> simulation;
  fracture::Params params;
  std::string variant;
  checks::fracture::MergeChoice choice;
  ObjectLock lock;
};

Simulation Start(nb::handle coords_object,
                 const std::array<std::uint32_t, 3>& grid, nb::handle offsets,
                 nb::handle indices, const std::string& variant_name,
                 float damage_distance, std::uint32_t max_cluster_size,
                 std::uint32_t min_cluster_size,
                 const std::string& neighborhood, const std::string& expansion,
                 std::uint64_t seed) {
  const fracture::Variant& variant =
      PickVariant(fracture::Variants(), "fracture", variant_name);
  if (neighborhood != "face6" && neighborhood != "all26") {
    throw std::invalid_argument(
        "fracture: neighborhood must be 'face6' or 'all26'");
  }
  if (expansion != "random" && expansion != "breadth_first") {
    throw std::invalid_argument(
        "fracture: expansion must be 'random' (as published) or "
        "'breadth_first'");
  }
  fracture::Params params;
  params.damage_distance = damage_distance;
  params.max_cluster_size = max_cluster_size;
  params.min_cluster_size = min_cluster_size;
  params.neighborhood = neighborhood == "face6"
                            ? fracture::Neighborhood::kFace6
                            : fracture::Neighborhood::kAll26;
  params.expansion = expansion == "random"
                         ? fracture::Expansion::kRandomAsPublished
                         : fracture::Expansion::kBreadthFirst;
  params.seed = seed;
  const IntegerArray<std::uint32_t> coords =
      ToIntegers<std::uint32_t>(coords_object, "fracture.start", "coords", 3);
  std::vector<fracture::Coord> particles(coords.rows);
  for (std::size_t p = 0; p < particles.size(); ++p) {
    const auto& c = coords.Rows<3>()[p];
    particles[p] = {c[0], c[1], c[2]};
  }
  Csr clusters;
  clusters.offsets =
      ToIntegers<std::uint32_t>(offsets, "fracture.start", "offsets")
          .TakeVector();
  clusters.indices =
      ToIntegers<std::uint32_t>(indices, "fracture.start", "indices")
          .TakeVector();
  ValidateCsr(clusters, particles.size());
  const fracture::State state = fracture::MakeState(
      {grid[0], grid[1], grid[2]}, std::move(particles), clusters);
  return {variant.run(state, params),
          params,
          std::string(variant.name),
          checks::fracture::MergeChoiceOf(variant),
          {}};
}

nb::dict Step(Simulation& s, const PointArray& array, bool check) {
  const Points positions = ToPoints(array);
  fracture::FrameReport report;
  std::string difference;
  Exclusive(s.lock, [&] {
    if (check) {
      // Ctrl-C between the frame and its oracle: the frame is kept, the
      // simulation stays usable, the check is not made.
      Interrupts interrupts;
      const fracture::State before = s.simulation->Snapshot();
      s.simulation->Step(positions, report);
      interrupts.Poll();
      difference = checks::fracture::FirstDifference(
          before, positions, s.params, s.choice, s.simulation->Snapshot(),
          s.simulation->BelongLists(), report);
    } else {
      s.simulation->Step(positions, report);
    }
  });
  nb::dict out;
  out["removed"] = report.removed;
  out["influenced"] = report.influenced;
  out["new_clusters"] = report.new_clusters;
  out["merged"] = report.merged;
  out["inserted"] = report.inserted;
  out["expanded"] = report.expanded;
  nb::dict seconds;
  for (std::size_t k = 0; k < fracture::kStages; ++k) {
    seconds[std::string(fracture::StageName(static_cast<fracture::Stage>(k)))
                .c_str()] = report.seconds[k];
  }
  out["stage_seconds"] = seconds;
  nb::list merges;
  for (std::size_t c = 0; c < report.merges.rows(); ++c) {
    nb::list row;
    for (const std::uint32_t slot : report.merges.Row(c)) row.append(slot);
    merges.append(row);
  }
  out["merges"] = merges;
  if (check) out["oracle"] = difference;
  return out;
}

// The live clusters' members, one array each, in slot order.
nb::list Clusters(const Simulation& s) {
  const fracture::State state =
      Exclusive(s.lock, [&] { return s.simulation->Snapshot(); });
  nb::list out;
  for (std::size_t slot = 0; slot < state.clusters.slots.size(); ++slot) {
    if (!state.clusters.valid[slot]) continue;
    out.append(ToNumpy(
        std::vector<std::uint32_t>(state.clusters.slots[slot].particles)));
  }
  return out;
}

// The live clusters' slots, ascending (Clusters' order).
nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>> Slots(
    const Simulation& s) {
  const fracture::State state =
      Exclusive(s.lock, [&] { return s.simulation->Snapshot(); });
  std::vector<std::uint32_t> slots;
  for (std::size_t slot = 0; slot < state.clusters.slots.size(); ++slot) {
    if (state.clusters.valid[slot]) {
      slots.push_back(static_cast<std::uint32_t>(slot));
    }
  }
  return ToNumpy(std::move(slots));
}

nb::ndarray<nb::numpy, const std::uint8_t, nb::ndim<1>> Intact(
    const Simulation& s) {
  const fracture::State state =
      Exclusive(s.lock, [&] { return s.simulation->Snapshot(); });
  std::vector<std::uint8_t> intact(state.Particles());
  for (std::size_t p = 0; p < intact.size(); ++p) {
    intact[p] = state.node_is_particle[fracture::NodeIndex(
        state.grid, state.particle_coord[p])];
  }
  return ToNumpy(std::move(intact));
}

// A block of nx x ny x nz particles and the published overlapping cube
// clusters (side, stride): what `adjacent fracture` and the benchmarks
// start from.
std::tuple<nb::ndarray<nb::numpy, const std::uint32_t, nb::shape<-1, 3>>,
           std::array<std::uint32_t, 3>,
           nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>>,
           nb::ndarray<nb::numpy, const std::uint32_t, nb::ndim<1>>>
Block(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz, std::uint32_t side,
      std::uint32_t stride) {
  scenes::Voxels voxels = scenes::Block(nx, ny, nz);
  Csr clusters = scenes::CubeClusters(voxels, side, stride);
  return {ToNumpyRows(std::move(voxels.cells)), voxels.grid,
          ToNumpy(std::move(clusters.offsets)),
          ToNumpy(std::move(clusters.indices))};
}

}  // namespace

void BindFracture(nb::module_& parent) {
  nb::module_ m = parent.def_submodule(
      "fracture",
      "The GPU cutting simulation's cluster-topology update "
      "(docs/fracture.md).");
  nb::class_<Simulation>(m, "Simulation",
                         "A variant's running simulation, in C++. Safe to "
                         "share between threads: calls on one simulation "
                         "take turns.")
      .def("step", &Step, nb::arg("positions"), nb::arg("check") = false,
           "One frame on the predicted positions (n x 3; removed "
           "particles' are not read): {removed, influenced, new_clusters, "
           "merged, inserted, expanded, stage_seconds, merges (per new "
           "cluster, the slots it merged into)} and, with "
           "check=True, 'oracle': '' when the frame is the oracle's, else "
           "the first difference.")
      .def("clusters", &Clusters, "The live clusters' members, slot order.")
      .def("slots", &Slots, "The live clusters' slots, ascending.")
      .def("intact", &Intact, "1 per particle still intact, else 0.")
      .def_ro("variant", &Simulation::variant);
  m.def("start", &Start, nb::arg("coords"), nb::arg("grid"), nb::arg("offsets"),
        nb::arg("indices"), nb::arg("variant") = "serial",
        nb::arg("damage_distance") = 1.5f, nb::arg("max_cluster_size") = 1024,
        nb::arg("min_cluster_size") = 8, nb::arg("neighborhood") = "face6",
        nb::arg("expansion") = "random", nb::arg("seed") = 0,
        "A simulation of the particles at node `coords` (n x 3) of `grid` "
        "(nx, ny, nz), clusters the CSR rows (offsets, indices), by the "
        "variant `variant`.");
  m.def("block", &Block, nb::arg("nx"), nb::arg("ny"), nb::arg("nz"),
        nb::arg("side") = 4, nb::arg("stride") = 2,
        "(coords, grid, offsets, indices): an nx x ny x nz block and its "
        "overlapping cube clusters.");
}

}  // namespace adj::python

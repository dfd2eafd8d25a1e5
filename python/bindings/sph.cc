// adjacent.sph: a fluid's state kept in C++ between steps (no copy per
// step), the scenes' fluids, and a step by any row of the family's table.
#include "algorithms/sph/sph.h"

#include <nanobind/stl/array.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <array>
#include <string>

#include "python/bindings/bindings.h"
#include "scenes/fluids.h"

namespace adj::python {
namespace {

// A state's particles, n x 3 row-major (taken under the state's lock).
std::vector<std::array<float, 3>> Rows(const Points& points) {
  std::vector<std::array<float, 3>> rows(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    rows[i] = {points.x[i], points.y[i], points.z[i]};
  }
  return rows;
}

using ScalarArray = Vector1d<float>;

// adjacent.sph.State: the state and its lock. A step changes every array
// of the state, so Python threads sharing one take turns: steps, reorders
// and the properties' copies never overlap (without it three threads
// stepping one state read each other's half-written arrays and report
// blow-ups that are not there).
struct StateObject {
  sph::State state;
  ObjectLock lock;
};

sph::State MakeState(const PointArray& positions, const PointArray& velocities,
                     const ScalarArray& density, const ScalarArray& mass) {
  sph::State state;
  state.x = ToPoints(positions);
  state.v = ToPoints(velocities);
  state.density = ToVector(density);
  state.mass = ToVector(mass);
  return state;
}

// The scenes' fluids (scenes/fluids.h) at rest with the suite's constants
// (sph::WeaklyCompressible), as the benchmarks and `adjacent sph` build
// them.
std::pair<StateObject, sph::Params> Scene(const std::string& name,
                                          std::size_t particles,
                                          float spacing) {
  if (name != "glass" && name != "dam_break") {
    throw std::invalid_argument("sph: no scene '" + name +
                                "' (scenes: glass, dam_break)");
  }
  const auto lattice = static_cast<float>(spacing);
  const scenes::FluidScene scene = name == "glass"
                                       ? scenes::GlassAtRest(particles, lattice)
                                       : scenes::DamBreak(particles, lattice);
  sph::Fluid fluid =
      sph::LatticeFluid(scene.positions, scene.spacing, scene.height,
                        sph::ContainerOf(scene.glass, scene.lo, scene.hi));
  return {StateObject{std::move(fluid.state), {}}, fluid.params};
}

nb::dict Step(StateObject& state, const sph::Params& shared_params,
              const std::string& variant_name, int steps) {
  const sph::Variant& variant =
      PickVariant(sph::Variants(), "sph", variant_name);
  if (steps < 0) throw std::invalid_argument("sph: steps must be >= 0");
  // A copy, taken with the GIL: another thread may set the Params' fields
  // while this one steps without it.
  const sph::Params params = shared_params;
  sph::Workspace workspace;
  sph::StepReport report;
  std::uint64_t interactions = 0;
  std::uint64_t candidates = 0;
  double device_seconds = 0;
  // Ctrl-C between steps: the steps done are kept, the state is whole.
  Interrupts interrupts;
  Exclusive(state.lock, [&] {
    for (int s = 0; s < steps; ++s) {
      if (s > 0) interrupts.Poll();
      variant.run(state.state, params, workspace, report);
      interactions += report.interactions;
      candidates += report.candidates;
      device_seconds += report.device_seconds;
    }
  });
  nb::dict out;
  out["steps"] = steps;
  out["interactions"] = interactions;
  out["candidates"] = candidates;
  out["threads"] = report.threads;
  out["device_seconds"] = device_seconds;
  return out;
}

}  // namespace

void BindSph(nb::module_& parent) {
  nb::module_ m = parent.def_submodule(
      "sph", "SPH steps: the chapter's passes and ours (docs/sph.md).");
  nb::class_<sph::Params>(m, "Params",
                          "The step's constants and container (sph.h).")
      .def(nb::init<>())
      .def_rw("h", &sph::Params::h)
      .def_rw("rest_density", &sph::Params::rest_density)
      .def_rw("stiffness", &sph::Params::stiffness)
      .def_rw("viscosity", &sph::Params::viscosity)
      .def_rw("dt", &sph::Params::dt)
      .def_prop_rw(
          "gravity",
          [](const sph::Params& p) {
            return std::array<float, 3>{p.gravity[0], p.gravity[1],
                                        p.gravity[2]};
          },
          [](sph::Params& p, const std::array<float, 3>& g) {
            for (int k = 0; k < 3; ++k) p.gravity[k] = g[k];
          })
      .def_prop_rw(
          "container",
          [](const sph::Params& p) {
            return p.container.kind == sph::Container::Kind::kGlass
                       ? std::string("glass")
                       : std::string("box");
          },
          [](sph::Params& p, const std::string& kind) {
            if (kind != "glass" && kind != "box") {
              throw std::invalid_argument(
                  "sph: container must be 'box' or 'glass'");
            }
            p.container.kind = kind == "glass" ? sph::Container::Kind::kGlass
                                               : sph::Container::Kind::kBox;
          },
          "'box', or 'glass': the vertical cylinder inscribed in lo..hi")
      .def_prop_rw(
          "lo",
          [](const sph::Params& p) {
            return std::array<float, 3>{p.container.lo[0], p.container.lo[1],
                                        p.container.lo[2]};
          },
          [](sph::Params& p, const std::array<float, 3>& v) {
            for (int k = 0; k < 3; ++k) p.container.lo[k] = v[k];
          })
      .def_prop_rw(
          "hi",
          [](const sph::Params& p) {
            return std::array<float, 3>{p.container.hi[0], p.container.hi[1],
                                        p.container.hi[2]};
          },
          [](sph::Params& p, const std::array<float, 3>& v) {
            for (int k = 0; k < 3; ++k) p.container.hi[k] = v[k];
          })
      .def_prop_rw(
          "restitution",
          [](const sph::Params& p) { return p.container.restitution; },
          [](sph::Params& p, float e) { p.container.restitution = e; });
  nb::class_<StateObject>(m, "State",
                          "Positions, velocities, densities of t-1 and "
                          "masses, kept in C++ between steps; the "
                          "properties are copies. Safe to share between "
                          "threads: calls on one state take turns.")
      .def(
          "__init__",
          [](StateObject* self, const PointArray& positions,
             const PointArray& velocities, const ScalarArray& density,
             const ScalarArray& mass) {
            new (self) StateObject{
                MakeState(positions, velocities, density, mass), {}};
          },
          nb::arg("positions"), nb::arg("velocities"), nb::arg("density"),
          nb::arg("mass"))
      .def("__len__",
           [](const StateObject& s) {
             return Shared(s.lock, [&] { return s.state.size(); });
           })
      .def_prop_ro(
          "positions",
          [](const StateObject& s) {
            return ToNumpyRows(Shared(s.lock, [&] { return Rows(s.state.x); }));
          },
          nb::rv_policy::automatic)
      .def_prop_ro(
          "velocities",
          [](const StateObject& s) {
            return ToNumpyRows(Shared(s.lock, [&] { return Rows(s.state.v); }));
          },
          nb::rv_policy::automatic)
      .def_prop_ro(
          "density",
          [](const StateObject& s) {
            return ToNumpy(Shared(
                s.lock, [&] { return std::vector<float>(s.state.density); }));
          },
          nb::rv_policy::automatic)
      .def_prop_ro(
          "mass",
          [](const StateObject& s) {
            return ToNumpy(Shared(
                s.lock, [&] { return std::vector<float>(s.state.mass); }));
          },
          nb::rv_policy::automatic);
  m.def("scene", &Scene, nb::arg("name"), nb::arg("particles"),
        nb::arg("spacing") = 0.01,
        "(State, Params) of the scene 'glass' (the chapter's glass at rest) "
        "or 'dam_break' (a column 2a tall released in a box) with about "
        "`particles` particles on a lattice of `spacing`.");
  m.def(
      "reorder_by_cell",
      [](StateObject& state, const sph::Params& shared_params) {
        const sph::Params params = shared_params;
        return ToNumpy(Exclusive(state.lock, [&] {
          return sph::ReorderByCell(state.state, params);
        }));
      },
      nb::arg("state"), nb::arg("params"),
      "Reorders every array of `state` by cell of h (the order the sorted "
      "variants step fastest) and returns the permutation: position k now "
      "holds the particle that was at permutation[k] (reorder your own "
      "per-particle arrays with it).");
  m.def("step", &Step, nb::arg("state"), nb::arg("params"),
        nb::arg("variant") = "sorted_pairs_simd", nb::arg("steps") = 1,
        "Advances `state` in place by `steps` steps of the variant; returns "
        "{steps, interactions, candidates, threads, device_seconds}.");
}

}  // namespace adj::python

#include "algorithms/sph/sph.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "algorithms/common/fault_points.h"
#include "algorithms/common/memory_budget.h"
#include "algorithms/common/parallel_errors.h"
#include "algorithms/sph/physics.h"
#include "algorithms/sph/teschner_hash.h"
#include "algorithms/sph/variants.h"

namespace adj::sph {

std::string TraitsText(const Traits& traits) {
  std::string text = traits.update == Update::kThreePass   ? "update=three_pass"
                     : traits.update == Update::kCollapsed ? "update=collapsed"
                     : traits.update == Update::kInPlace   ? "update=in_place"
                                                           : "update=unset";
  if (traits.neighbor_lists) text += " neighbor_lists=yes";
  return text;
}

// Long: the variant table, one row per variant.
std::span<const Variant> Variants() {
  static constexpr std::array kVariants = {
    Variant{"naive",
            Backend::kSerial,
            Origin::kFaithful,
            "the chapter's Algorithm 1 (Table 6.3 'naive'): Teschner's "
            "spatial hash built from x of t0, queried again in the "
            "density and the force pass (27 cells of h, a bucket "
            "visited twice skipped), then the integration pass",
            &NaiveStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"neighbor",
            Backend::kSerial,
            Origin::kFaithful,
            "Algorithm 1 with neighbour lists (Table 6.3 'neighbour'): "
            "the density pass keeps the neighbours it found and the "
            "force pass walks them; naive's arithmetic in naive's "
            "order, so the same bits",
            &NeighborStep,
            "naive",
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass, /*neighbor_lists=*/true}},
    Variant{"collapse",
            Backend::kSerial,
            Origin::kFaithful,
            "the chapter's Algorithm 3 (Table 6.3 'collapse'): one pass "
            "over Teschner's hash; forces read x and v of t0 and the "
            "densities of t-1, new state written aside",
            &CollapseStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kCollapsed}},
    Variant{"collapse_inplace",
            Backend::kSerial,
            Origin::kFaithful,
            "Algorithm 2 as printed: collapse updating the state in "
            "place in ascending order, so neighbours j < i are read "
            "already moved (x, v of t1, density of t0); order "
            "dependent, kept to measure what the inconsistency costs",
            &CollapseInplaceStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kInPlace}},
    Variant{"gcb_hash",
            Backend::kSerial,
            Origin::kFaithful,
            "collapse over the chapter's grid-cell-based hash (Table "
            "6.3 'GCB hash'): buckets hold cells, cells hold their "
            "particles, built from scratch by sorting particles by "
            "bucket then cell; a query visits only its 27 cells' "
            "particles",
            &GcbHashStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kCollapsed}},
    Variant{"homogeneous",
            Backend::kSerial,
            Origin::kFaithful,
            "gcb_hash for one fluid (Table 6.3 'homogeneous'): every "
            "mass equal (else Error), mass and kernel constants "
            "factored out of the sums, 1/rho and p/rho of t-1 computed "
            "once per particle",
            &HomogeneousStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kCollapsed}},
    Variant{"sorted_pairs",
            Backend::kSerial,
            Origin::kOurs,
            "the three passes (densities of t0, as naive) over the "
            "particles sorted by cell (counting sort over their bounding "
            "box of cells, a comparison sort where it is sparse): a "
            "cell's 3 x 3 neighbour rows are 9 contiguous ranges found "
            "once per cell, each pair within h is met once (the later "
            "half of the rows) and its density and equal and opposite "
            "forces go to both particles",
            &SortedPairsStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"sorted_gather",
            Backend::kSerial,
            Origin::kOurs,
            "the three passes over the particles sorted by cell, each "
            "particle gathering its own density and force over the 9 "
            "contiguous rows of cells around it (no writes to a "
            "neighbour: every pair twice, particles independent)",
            &SortedGatherStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"sorted_gather_openmp",
            Backend::kOpenMp,
            Origin::kOurs,
            "sorted_gather with its particle loops on OpenMP threads: "
            "the same bits",
            &SortedGatherOpenMpStep,
            "sorted_gather",
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"sorted_simd",
            Backend::kSimd,
            Origin::kOurs,
            "sorted_gather's row sums on SIMD lanes (Highway, dynamic "
            "dispatch): a vector of candidates tested and summed at "
            "once, pairs outside h masked to zero",
            &SortedSimdStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"sorted_simd_openmp",
            Backend::kOpenMp,
            Origin::kOurs,
            "sorted_simd with its particle loops on OpenMP threads: the "
            "same bits",
            &SortedSimdOpenMpStep,
            "sorted_simd",
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"sorted_pairs_simd",
            Backend::kSimd,
            Origin::kOurs,
            "sorted_pairs on SIMD lanes (Highway, dynamic dispatch): a "
            "vector of later candidates at a time, the second "
            "particle's density and opposite force added to a "
            "contiguous run of the sorted arrays (masked load and "
            "store); each cell's particles sorted by x, so a row is cut "
            "to the candidates within h in x; particles slab by slab "
            "(cells of one z), even slabs then odd ones",
            &SortedPairsSimdStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"sorted_pairs_simd_openmp",
            Backend::kOpenMp,
            Origin::kOurs,
            "sorted_pairs_simd with the slabs of one parity on OpenMP "
            "threads (a slab writes only itself and the next): the same "
            "additions in the same order, the same bits",
            &SortedPairsSimdOpenMpStep,
            "sorted_pairs_simd",
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
#if ADJ_HAVE_CUDA
    Variant{"cuda",
            Backend::kCuda,
            Origin::kOurs,
            "sorted_gather's three passes on the GPU, one thread per "
            "particle: CUB radix sort by cell of the container, the 9 "
            "rows of cells around a particle read from a table of cell "
            "starts (binary search in the sorted keys where the container "
            "has over 8 cells a particle), float4 loads, a density kernel, "
            "then a force and integration kernel; host memory in and out "
            "(copies timed; StepReport::device_seconds without them)",
            &CudaSortedStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass}},
    Variant{"cuda_neighbor",
            Backend::kCuda,
            Origin::kOurs,
            "cuda with Algorithm 1's neighbour lists: the density kernel "
            "lists each particle's neighbours within h (column-major, 64 "
            "each, the step rerun with room for the longest where one "
            "overflows) and the force kernel reads its list instead of the "
            "rows",
            &CudaNeighborListStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kThreePass, /*neighbor_lists=*/true}},
    Variant{"cuda_collapse",
            Backend::kCuda,
            Origin::kOurs,
            "Algorithm 3 on the GPU: cuda's sort and rows, one kernel "
            "summing the density of t0 and the force from the densities of "
            "t-1 in the same loop",
            &CudaCollapseStep,
            {},
            nullptr,
            {},
            nullptr,
            Traits{Update::kCollapsed}},
#endif
  };
  return kVariants;
}

Kernels::Kernels(float smoothing_length)
    : h(smoothing_length),
      h2(smoothing_length * smoothing_length),
      poly6(
          static_cast<float>(315.0 / (64.0 * std::numbers::pi *
                                      std::pow(double{smoothing_length}, 9)))),
      spiky(static_cast<float>(
          45.0 / (std::numbers::pi * std::pow(double{smoothing_length}, 6)))),
      viscous(spiky) {}

namespace {

bool Finite(float value) { return std::isfinite(value); }

std::string Particle(std::size_t i) { return "particle " + std::to_string(i); }

void Require(bool holds, const std::string& what) {
  if (!holds) throw Error("sph: " + what);
}

// A number for messages, with the digits a float has.
std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

}  // namespace

void Check(const Params& params) {
  Require(Finite(params.h) && params.h > 0,
          "smoothing length h must be finite and > 0");
  Require(Finite(params.rest_density) && params.rest_density > 0,
          "rest density must be finite and > 0");
  Require(Finite(params.stiffness) && params.stiffness >= 0,
          "stiffness must be finite and >= 0");
  Require(Finite(params.viscosity) && params.viscosity >= 0,
          "viscosity must be finite and >= 0");
  Require(Finite(params.dt) && params.dt > 0,
          "time step dt must be finite and > 0");
  // The CFL bound of the pressure's sound waves: c = sqrt(stiffness) is the
  // speed of sound of p = k (rho - rho_0) (dp / drho = k), and a step in
  // which a wave crosses more than kMaxCourantNumber smoothing lengths
  // cannot be resolved by the kernel (docs/sph.md, "Constants").
  const double sound = std::sqrt(double{params.stiffness});
  const double bound = kMaxCourantNumber * double{params.h} / sound;
  Require(double{params.dt} * sound <= kMaxCourantNumber * double{params.h},
          "time step dt = " + Number(params.dt) + " is above the CFL bound " +
              Number(kMaxCourantNumber) + " h / c = " + Number(bound) +
              " (h = " + Number(params.h) + ", c = sqrt(stiffness) = " +
              Number(sound) + ", the speed of sound; lower dt or stiffness)");
  for (const float g : params.gravity) {
    Require(Finite(g), "gravity must be finite");
  }
  const Container& box = params.container;
  Require(
      Finite(box.restitution) && box.restitution >= 0 && box.restitution <= 1,
      "restitution must be in [0, 1]");
  for (int axis = 0; axis < 3; ++axis) {
    Require(Finite(box.lo[axis]) && Finite(box.hi[axis]) &&
                box.lo[axis] < box.hi[axis],
            "the container must be finite with lo < hi on every axis");
    const double cells =
        (double{box.hi[axis]} - double{box.lo[axis]}) / double{params.h};
    Require(cells <= static_cast<double>(kMaxCellsPerAxis),
            "the container spans more than 2^20 cells of h on an axis "
            "(raise h or shrink the container)");
  }
}

namespace detail {

Overstep IntegrateAll(const Params& params,
                      const std::vector<float>& acceleration, State& state) {
  const double bound2 = SquaredMoveBound(params);
  Overstep overstep;
  for (std::size_t i = 0; i < state.size(); ++i) {
    overstep.Note(i,
                  Integrate(params,
                            {acceleration[3 * i], acceleration[3 * i + 1],
                             acceleration[3 * i + 2]},
                            state.x.x[i], state.x.y[i], state.x.z[i],
                            state.v.x[i], state.v.y[i], state.v.z[i]),
                  bound2);
  }
  return overstep;
}

std::uint32_t TableSize(const Params& params, std::size_t particles) {
  if (params.table_size > 0) return params.table_size;
  return static_cast<std::uint32_t>(std::max<std::size_t>(1, 2 * particles));
}

namespace {

// The first i < n for which bad(i) holds, n if none: on OpenMP threads
// when `parallel` (a minimum, so the same answer either way).
template <typename Bad>
std::size_t FirstBad(std::size_t n, bool parallel, Bad bad) {
  std::size_t first = n;
  const auto count = static_cast<std::int64_t>(n);
  ExceptionTrap trap_1;
#pragma omp parallel for schedule(static) reduction(min : first) if (parallel)
  for (std::int64_t i = 0; i < count; ++i) {
    trap_1.Run([&] {
      fault::Point("sph.check.1");
      if (bad(static_cast<std::size_t>(i))) {
        first = std::min(first, static_cast<std::size_t>(i));
      }
    });
  }
  trap_1.Rethrow();
  return first;
}

}  // namespace

void CheckFinished(const State& after, const Params& params,
                   const Overstep& overstep, bool parallel) {
  const auto finite = [&](std::size_t i) {
    return Finite(after.x.x[i]) && Finite(after.x.y[i]) &&
           Finite(after.x.z[i]) && Finite(after.v.x[i]) &&
           Finite(after.v.y[i]) && Finite(after.v.z[i]) &&
           Finite(after.density[i]);
  };
  // Particles before the overstep are scanned for a value that is not
  // finite; the overstep itself is named unless one of them is.
  const std::size_t n = after.size();
  const std::size_t scanned = std::min(n, overstep.particle);
  const std::size_t i =
      FirstBad(scanned, parallel, [&](std::size_t j) { return !finite(j); });
  if (i < scanned) {
    throw Error("sph: the state blew up: " + Particle(i) +
                " is no longer finite (lower dt or stiffness)");
  }
  if (overstep.particle >= n) return;
  const std::size_t p = overstep.particle;
  const double moved = std::sqrt(overstep.step2);
  throw Error(
      "sph: the state blew up: " + Particle(p) +
      (finite(p) && std::isfinite(moved)
           ? " moved " + Number(moved) +
                 " in one step (before the wall's response), more than h = " +
                 Number(params.h)
           : " is no longer finite") +
      " (lower dt or stiffness)");
}

void CheckState(const State& state, const Params& params, bool reads_density,
                bool parallel) {
  Check(params);
  const std::size_t n = state.x.size();
  Require(state.x.y.size() == n && state.x.z.size() == n &&
              state.v.x.size() == n && state.v.y.size() == n &&
              state.v.z.size() == n && state.mass.size() == n &&
              state.density.size() == n,
          "the state's arrays must have one length");
  Require(n <= kMaxParticles, "more than 2^31 - 1 particles");
  // Which of the particle's tests fails first, 0 if none; the message is
  // written only for the first failing particle (the check runs every
  // step: no string per particle).
  const auto failure = [&](std::size_t i) {
    if (!(Finite(state.x.x[i]) && Finite(state.x.y[i]) &&
          Finite(state.x.z[i]))) {
      return 1;
    }
    if (!(Finite(state.v.x[i]) && Finite(state.v.y[i]) &&
          Finite(state.v.z[i]))) {
      return 2;
    }
    if (!(Finite(state.mass[i]) && state.mass[i] > 0)) return 3;
    if (!Inside(params.container, state.x.x[i], state.x.y[i], state.x.z[i])) {
      return 4;
    }
    if (reads_density && !(Finite(state.density[i]) && state.density[i] > 0)) {
      return 5;
    }
    return 0;
  };
  const std::size_t i =
      FirstBad(n, parallel, [&](std::size_t j) { return failure(j) != 0; });
  if (i == n) return;
  static constexpr const char* kWhat[] = {
      "",
      " has a NaN or infinite position",
      " has a NaN or infinite velocity",
      " has a mass that is not finite and > 0",
      " is outside the container",
      " has a density of t-1 that is not finite and > 0 (call "
      "sph::Prepare before a first collapsed step)"};
  throw Error("sph: " + Particle(i) + kWhat[failure(i)]);
}

}  // namespace detail

void Check(const State& state, const Params& params, bool reads_density) {
  detail::CheckState(state, params, reads_density, false);
}

Params WeaklyCompressible(float spacing, float height) {
  if (!(std::isfinite(spacing) && spacing > 0)) {
    throw Error("sph: the lattice spacing " + std::to_string(spacing) +
                " must be finite and > 0");
  }
  if (!(std::isfinite(height) && height > 0)) {
    throw Error("sph: the fluid's column height " + std::to_string(height) +
                " must be finite and > 0: the speed of sound, and with it "
                "the time step, come from it (a fluid of one layer of "
                "particles has none; give it more particles)");
  }
  Params params;
  params.h = 2 * spacing;
  params.rest_density = 1000;
  const double g = 9.81;
  const double c = 10 * std::sqrt(2 * g * double{height});
  params.stiffness = static_cast<float>(c * c);
  params.viscosity =
      static_cast<float>(params.rest_density * 0.25 * params.h * c);
  params.dt = static_cast<float>(0.4 * params.h / c);
  params.gravity[0] = 0;
  params.gravity[1] = static_cast<float>(-g);
  params.gravity[2] = 0;
  return params;
}

State AtRest(const Points& positions, float spacing, const Params& params) {
  Check(params);
  // The state's 8 floats a particle, asked for before any is allocated.
  memory::Require(memory::Bytes(positions.size(), 8 * sizeof(float)),
                  "sph: a fluid of " + std::to_string(positions.size()) +
                      " particles at rest");
  // W summed over the lattice points within h of one of them, in double.
  const double h = params.h;
  const auto reach = static_cast<int>(std::ceil(h / spacing));
  double sum = 0;
  for (int z = -reach; z <= reach; ++z) {
    for (int y = -reach; y <= reach; ++y) {
      for (int x = -reach; x <= reach; ++x) {
        const double r2 = double{spacing} * spacing * (x * x + y * y + z * z);
        if (r2 >= h * h) continue;
        const double d = h * h - r2;
        sum += 315.0 / (64.0 * std::numbers::pi * std::pow(h, 9)) * d * d * d;
      }
    }
  }
  State state;
  state.x = positions;
  const std::size_t n = positions.size();
  state.v.Resize(n);
  state.mass.assign(n, static_cast<float>(params.rest_density / sum));
  state.density.assign(n, params.rest_density);
  Prepare(state, params);
  return state;
}

Container ContainerOf(bool glass, const std::array<float, 3>& lo,
                      const std::array<float, 3>& hi) {
  Container box;
  box.kind = glass ? Container::Kind::kGlass : Container::Kind::kBox;
  for (int k = 0; k < 3; ++k) {
    box.lo[k] = lo[k];
    box.hi[k] = hi[k];
  }
  return box;
}

Fluid LatticeFluid(const Points& positions, float spacing, float height,
                   const Container& container) {
  Fluid fluid;
  fluid.params = WeaklyCompressible(spacing, height);
  fluid.params.container = container;
  fluid.state = AtRest(positions, spacing, fluid.params);
  return fluid;
}

void Prepare(State& state, const Params& params) {
  Check(state, params, false);
  Workspace workspace;
  StepReport report;
  detail::TeschnerDensities(state, params, workspace, state.density, report);
}

}  // namespace adj::sph

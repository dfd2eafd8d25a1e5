#pragma once

// sph: one step of a weakly compressible SPH fluid (van Kooten, "Optimized
// SPH", Game Physics Pearls ch. 6; docs/sources/van-kooten-sph.md), in the
// passes the chapter compares. Every variant computes, for particles i and
// their neighbours j (r = |x_i - x_j| < h, self included in the density):
//
//   density   rho_i = sum_j m_j W(r),   W = 315 / (64 pi h^9) (h^2 - r^2)^3
//   pressure  p_i = stiffness (rho_i - rest_density)
//   force     F_i = sum_{j != i} m_i m_j / (rho_i rho_j) [
//                     -(p_i + p_j) / 2 grad W_spiky(x_i - x_j)
//                     + viscosity (v_j - v_i) lap W_visc(r) ],
//             grad W_spiky(d) = -45 / (pi h^6) (h - r)^2 d / r  (0 at r = 0),
//             lap W_visc(r) = 45 / (pi h^6) (h - r)
//   then      a_i = F_i / m_i + gravity  (the chapter's a_i = f_i / m_i)
//             v_i' = v_i + a_i dt, x_i' = x_i + v_i' dt  (symplectic Euler)
//   and the container clamps x_i' (Container says how).
//
// These are Müller et al. 2003's kernels and forces (density, pressure by
// Desbrun's equation of state, Müller's symmetric pressure and viscosity
// terms) written as forces on particles, so that pair forces are equal and
// opposite (momentum is conserved without container and gravity).
// docs/sph.md says what of the chapter's section 6.2 we could read and
// what we chose where we could not.
//
// The variants differ in which state a force reads:
//   - three passes (naive, neighbor): densities of the positions the step
//     starts from (t0), then forces from x, v and rho of t0;
//   - collapsed (collapse, gcb_hash, homogeneous: the chapter's Algorithm
//     3): one pass; forces read x, v of t0 and every density (also the
//     particle's own) of t-1, the densities the previous step computed and
//     the state holds;
//   - collapse_inplace (Algorithm 2 as printed): one pass updating the
//     state in place in ascending particle order, so a neighbour j < i is
//     read moved (x, v of t1, its density of t0) and j > i not (t0, t-1);
//     the cells are those of t0. Order dependent; kept to measure what the
//     inconsistency costs.
// After a step, every variant leaves in State::density the densities of
// the positions the step started from (those the next collapsed step reads
// as t-1). Prepare() sets them for a first step.
//
// Bad input throws sph::Error before the state changes: NaN or infinite
// positions, velocities or masses (naming the first particle), a mass <= 0,
// a density <= 0 where a collapsed variant reads it, a particle outside the
// container, parameters out of range (Check: a dt above the CFL bound among
// them), more than 2^31 - 1 particles or a container of more than
// kMaxCellsPerAxis cells of h per axis. A step whose result is not finite,
// or in which a particle's step v' dt before the wall's response is longer
// than kMaxMovePerStep x h, throws sph::Error naming the first such particle
// (a blown-up state: lower dt or stiffness); the state then holds that
// step's result. No particles is valid.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/points.h"
#include "algorithms/common/variant.h"

namespace adj::sph {

class Error : public adj::Error {
 public:
  using adj::Error::Error;
};

// Where the fluid lives. Particles that leave it are put back on its wall
// and lose their outward velocity, times -restitution (clamping with
// restitution, the boundary model of game SPH; docs/sph.md says why not
// boundary particles yet).
//   - kBox: the axis-aligned box [lo, hi];
//   - kGlass: a glass, the vertical (y) cylinder inscribed in the box's x-z
//     extent (axis at the centre, radius half the smaller of its x and z
//     extents), its floor at lo.y, clamped at hi.y as a lid.
struct Container {
  enum class Kind { kBox, kGlass };
  Kind kind = Kind::kBox;
  float lo[3] = {0, 0, 0};
  float hi[3] = {1, 1, 1};
  float restitution = 0;  // in [0, 1]
};

struct Params {
  float h = 0;             // smoothing length: kernel support and cell size
  float rest_density = 0;  // rho_0 > 0
  float stiffness = 0;     // k >= 0 of p = k (rho - rho_0)
  float viscosity = 0;     // mu >= 0
  float dt = 0;            // > 0
  float gravity[3] = {0, -9.81f, 0};
  Container container;
  // Buckets of the hashed variants; 0: twice the particles (at least 1).
  std::uint32_t table_size = 0;
};

struct State {
  Points x;                    // positions
  Points v;                    // velocities
  std::vector<float> density;  // densities of the previous step (t-1)
  std::vector<float> mass;
  std::size_t size() const { return x.size(); }
  void Resize(std::size_t n) {
    x.Resize(n);
    v.Resize(n);
    density.resize(n);
    mass.resize(n);
  }
  friend bool operator==(const State&, const State&) = default;
};

// What a step did, for benchmarks and the command line.
struct StepReport {
  // Pairs (i, j), i != j, within h that the step's forces summed: the
  // particle-neighbour interactions.
  std::uint64_t interactions = 0;
  // Candidates the neighbour search handed to the distance test, self and
  // repeats included (every pass that searched counts).
  std::uint64_t candidates = 0;
  int threads = 1;
  // CUDA rows: the seconds of the device's own work (sort and kernels, by
  // CUDA events), the copies to and from host memory left out.
  double device_seconds = 0;
};

// Buffers a variant keeps from step to step (hash tables, neighbour lists,
// force accumulators): one per simulation, reused, never shared between
// threads that step at once.
struct Workspace {
  std::vector<std::uint32_t> bucket_start;
  std::vector<std::uint32_t> entries;
  std::vector<std::uint32_t> cell_start;
  std::vector<std::uint64_t> cell_keys;
  std::vector<std::uint64_t> particle_keys;
  std::vector<std::uint32_t> keys;
  std::vector<std::uint32_t> neighbor_start;
  std::vector<std::uint32_t> neighbor_ids;
  std::vector<float> scratch;
  // The neighbour rows of the sorted variants (cell_sort.h).
  std::vector<std::uint32_t> cell_first;
  std::vector<std::uint32_t> cell_run;
  std::vector<std::uint32_t> row_begin;
  std::vector<std::uint32_t> row_end;
  State next;
};

inline constexpr std::size_t kMaxParticles = 0x7fffffff;
inline constexpr std::int64_t kMaxCellsPerAxis = 1 << 20;
inline constexpr float kMaxMovePerStep = 1;
// The largest Courant number dt c / h a step may have, c = sqrt(stiffness)
// the speed of sound: 2.5 times the scenes' 0.4, past the 0.69 - 0.73 at
// which the stability sweep's three passes already blow up (docs/sph.md).
inline constexpr double kMaxCourantNumber = 1;

// Throws Error unless `params` is in range: h, rest_density and dt finite
// and > 0; dt sqrt(stiffness) <= kMaxCourantNumber h in double (the CFL
// bound, named in the message); stiffness and viscosity finite and >= 0;
// gravity finite; restitution in [0, 1]; the container finite with lo < hi
// on each axis and at most kMaxCellsPerAxis cells of h per axis.
void Check(const Params& params);
// Check(params), and `state`'s arrays of one length with finite positions
// inside the container, finite velocities, finite masses > 0 and, when
// `reads_density`, finite densities > 0.
void Check(const State& state, const Params& params, bool reads_density);

// Sets state.density to the densities of state.x (the t-1 densities a
// first collapsed step reads: a fluid that has not moved before).
void Prepare(State& state, const Params& params);

// Constants for a weakly compressible fluid of particles on a lattice of
// `spacing` whose column is `height` tall (docs/sph.md derives them):
// h = 2 spacing (about 33 neighbours), rest density 1000, a speed of sound
// c = 10 sqrt(2 g height) (ten times the fastest free fall in the column,
// so density varies by about 1 %), stiffness c^2, dt = 0.4 h / c (the CFL
// bound), viscosity mu = rest density x 0.25 h c (above 0.2 h c, the
// least at which a step whose pressures are one step old, the collapsed
// variants', stays stable at that dt), gravity 9.81 down, restitution 0;
// the container is the caller's. Throws Error naming the value for a
// spacing or a height that is not finite and > 0 (a scene of one layer of
// particles has no column, so no speed of sound and no time step).
Params WeaklyCompressible(float spacing, float height);

// The state of particles at `positions` at rest: velocities 0, every mass
// the one that gives a particle inside a cubic lattice of `spacing` the
// rest density (the sum of W over the lattice points within h), densities
// of t-1 those of the positions (Prepare). Throws Error as Check does, and
// adj::ResourceError where the state's bytes exceed the memory budget.
State AtRest(const Points& positions, float spacing, const Params& params);

// Particles at `positions`, on a lattice of `spacing`, in a column `height`
// tall, at rest in `container`: WeaklyCompressible's constants with that
// container and AtRest's state.
// A glass (the vertical cylinder inscribed in lo..hi's x-z extent) or a
// box from lo to hi, restitution 0: a scene's container (scenes/fluids.h).
Container ContainerOf(bool glass, const std::array<float, 3>& lo,
                      const std::array<float, 3>& hi);

struct Fluid {
  State state;
  Params params;
};
Fluid LatticeFluid(const Points& positions, float spacing, float height,
                   const Container& container);

// Reorders every array of `state` by cell of h (the cells x fastest, then
// y, then z, over the particles' bounding box; inside a cell by x, then by
// index) and returns the permutation: new position k holds the particle
// that was at permutation[k], for the caller to reorder its own
// per-particle arrays. A state kept in cell order (reordered every few
// dozen steps, as CompactNSearch's users do) makes the sorted variants'
// gathers and scatters nearly sequential; the step itself is the same
// contract on the same particles (docs/sph.md). Check(state, params,
// false) first: bad input throws Error before the state changes. On
// OpenMP threads when `parallel` (the same result either way).
std::vector<std::uint32_t> ReorderByCell(State& state, const Params& params,
                                         bool parallel = true);

// The kernels of the contract, in float, as every variant evaluates them.
struct Kernels {
  float h;
  float h2;
  float poly6;    // 315 / (64 pi h^9)
  float spiky;    // 45 / (pi h^6): grad W = -spiky (h - r)^2 d / r
  float viscous;  // 45 / (pi h^6): lap W = viscous (h - r)
  explicit Kernels(float smoothing_length);
};

using StepFn = void(State& state, const Params& params, Workspace& workspace,
                    StepReport& report);
// What a step's forces read (the axis the chapter's rows differ on): the
// densities of t0 after a density pass (three passes: naive), those of
// t-1 in one collapsed pass (collapse), or collapse updating the state in
// place in ascending order (Algorithm 2 as printed).
// kUnset, the default, is no update: every row must name its own (the
// check and the device forms refuse a row that does not).
enum class Update { kUnset, kThreePass, kCollapsed, kInPlace };
struct Traits {
  Update update = Update::kUnset;
  // The density pass keeps each particle's neighbours and the force pass
  // walks them (Algorithm 1 with lists).
  bool neighbor_lists = false;
};
// "update=three_pass", "update=collapsed neighbor_lists=yes", ...
std::string TraitsText(const Traits& traits);
using Variant = adj::Variant<StepFn, Traits>;

// The variant table (docs/sph.md lists it): the chapter's Table 6.3 rows
// first (naive is the baseline), then ours.
std::span<const Variant> Variants();

}  // namespace adj::sph

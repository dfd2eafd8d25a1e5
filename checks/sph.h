#pragma once

// sph's verifier: a variant's step against the double-precision oracle
// (reference/sph), within a float tolerance whose scale the oracle gives
// per particle, and the accuracy measures the command line and the
// benchmarks report.

#include <string>
#include <string_view>
#include <vector>

#include "algorithms/sph/sph.h"

namespace adj::checks::sph {

// Which step a variant computes (sph.h says what each reads).
enum class Definition { kThreePass, kCollapsed, kInPlace };
// The definition a row of adj::sph::Variants() computes: its Traits'
// update.
Definition DefinitionOf(const adj::sph::Variant& variant);
std::string_view DefinitionName(Definition definition);

// The tolerance of a float step against the oracle, relative to the scale
// of what it sums (see FirstDifference).
inline constexpr double kTolerance = 1e-4;

// "" when `after`, the state a variant stepped from `before`, is the
// oracle's step of `definition` within `tolerance`, else the first
// difference in words. Per particle i, with the oracle's values *_ref and
// its acceleration scale S_i (the summed magnitude of i's acceleration
// terms, gravity included):
//   |rho_i - rho_ref| <= tolerance rho_ref,
//   |v_i - v_ref| <= tolerance (|v_i before| + dt S_i) + 4 eps |v_ref|,
//   |x_i - x_ref| <= tolerance dt (|v_i before| + dt S_i) + 8 eps |x_ref|,
// (eps: float's); where the oracle's unclamped position lies within that
// position bound of a wall, the step with that wall's decision reversed
// is accepted too. Pairs within rounding of h may be in one and not the
// other: every kernel vanishes at h, so they stay inside these bounds.
std::string FirstDifference(const adj::sph::State& before,
                            const adj::sph::Params& params,
                            Definition definition, const adj::sph::State& after,
                            double tolerance = kTolerance);

// The oracle's step of `definition` from `before`, rounded to float: a
// state FirstDifference accepts (the exported cases' expected output).
adj::sph::State ExpectedOf(const adj::sph::State& before,
                           const adj::sph::Params& params,
                           Definition definition);

// How far a run of a variant is from a reference run of the same scene
// after the same number of steps (accuracy against speed): over every
// particle, the relative RMS and largest relative difference of the
// densities of the positions each step started from, in percent of the
// rest density; the RMS distance between positions in units of h; and the
// variant run's kinetic energy and largest speed.
struct Accuracy {
  double density_rms_percent = 0;
  double density_max_percent = 0;
  double position_rms_h = 0;
  double kinetic_energy = 0;
  double max_speed = 0;
};
Accuracy Compare(const adj::sph::State& run, const adj::sph::State& reference,
                 const adj::sph::Params& params);

// A column at rest against hydrostatics: depth below the free surface (the
// highest particle plus half a lattice spacing), the particles at least h
// from the side walls and the floor (whose kernels are whole) binned by
// depth in bins of h, per bin the mean pressure k (rho - rho_0) of its
// particles against rho_0 |g| depth at the bin's mean depth. The error is
// the largest |p - p_analytic| over the bins deeper than h, in percent of
// rho_0 |g| H, the analytic pressure at the floor (H the column's height);
// half_error_percent the same for p / 2, the pressure whose gradient the
// contract's (p_i + p_j) / 2 force exerts in the interior (docs/sph.md).
// What keeps the profile from hydrostatics, measured on the same state
// (docs/sph.md, Hydrostatics), over the deep interior: the particles at
// least 2 h from the side walls and the floor (their neighbours' kernels
// whole too) and 2 h below the highest particle:
//   - slope_ratio: the least-squares slope of p / 2 against height over
//     the deep interior, in units of -rho_0 |g| (1: hydrostatic);
//   - gradient_normalisation: the mean over the deep interior of the
//     spiky kernel's discrete gradient of height, sum_j m_j / rho_j (y_j -
//     y_i) d/dy_i W(x_i - x_j) (1 in the continuum; 0.956 on the scenes'
//     lattice), every particle a neighbour (brute force);
//   - boundary_fraction: the share of the particles that lie on the floor
//     or a side wall (within 1e-4 h), where the clamp holds them;
//   - volume_height: the height the fluid's mass would fill at the rest
//     density over the container's cross-section (against column_height:
//     the room the particles on the walls took).
struct Hydrostatic {
  std::vector<double> depth;     // bin mean
  std::vector<double> pressure;  // bin mean
  std::vector<double> analytic;
  double column_height = 0;
  double error_percent = 0;
  double half_error_percent = 0;
  double slope_ratio = 0;
  double gradient_normalisation = 0;
  double boundary_fraction = 0;
  double volume_height = 0;
};
Hydrostatic HydrostaticProfile(const adj::sph::State& state,
                               const adj::sph::Params& params, float spacing);

// The dam break's surge front: how far the fluid on the floor reaches, the
// largest x of the particles less than h above the floor, measured from
// the container's lo x (the wall the column stands against); 0 when no
// particle is that low.
double SurgeFront(const adj::sph::State& state, const adj::sph::Params& params);

// The oracle's densities of state.x (brute force).
std::vector<double> OracleDensities(const adj::sph::State& state,
                                    const adj::sph::Params& params);

}  // namespace adj::checks::sph

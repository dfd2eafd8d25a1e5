#pragma once

// The SPH physics studies: how a variant's fluid behaves over many steps,
// against physics rather than against the oracle (docs/sph.md, Physics
// studies). Each runs one variant on one scene and returns what it
// measured; experiments/sph_studies_main.cc runs a plan of them and writes
// their JSON. They are not benchmarks: a study's time is incidental, its
// result is the profile, the stiffness or the front.

#include <cstddef>
#include <string>
#include <vector>

#include "algorithms/sph/sph.h"
#include "checks/sph.h"

namespace adj::sph::studies {

// The lattice spacing of every study's scene (scenes/fluids.h).
inline constexpr float kSpacing = 0.01f;

// The scenes at `particles` particles: "glass" or "dam_break".
Fluid MakeFluid(const std::string& scene, std::size_t particles);

// "" when the variant's first step on the scene at 8,000 particles agrees
// with the oracle (checks::sph::FirstDifference), else the difference.
std::string OracleVerdict(const Variant& variant, const std::string& scene);

// `steps` steps of the glass from the lattice, then its pressure profile
// against hydrostatics and how still it is. Throws Error ("step S: ...")
// for a state that blew up.
struct Hydrostatic {
  checks::sph::Hydrostatic profile;
  checks::sph::Accuracy still;  // of the state against itself: its motion
  double seconds_per_step = 0;
};
Hydrostatic RunHydrostatic(const Variant& variant, std::size_t particles,
                           int steps);

// The chapter's stability sweep (its Table 6.1): the largest stiffness at
// which the glass stays stable for `steps` steps at a fixed time step dt =
// cfl x h / c_0 (c_0 the scene's speed of sound), found by bisection on
// log k between k_0 / 64 and 64 k_0 to within 5 %. Stable: no blown-up
// state (a step's Error, the CFL bound of Check included) and a mean speed
// under 0.5 m/s at the end (the glass at rest settles to about 0.01 m/s;
// the chapter's criterion is an average speed above 10 in its units).
struct Stability {
  double largest_stable_k = 0;     // 0: unstable even at k_0 / 64
  double smallest_unstable_k = 0;  // 0: stable even at 64 k_0
  double k0 = 0;
  double dt = 0;
  double viscosity = 0;
  int trials = 0;
};
Stability RunStability(const Variant& variant, std::size_t particles,
                       double cfl, int steps);
// Whether the glass stays stable as RunStability judges it at stiffness k
// and time step dt.
bool Stable(const Variant& variant, const Fluid& fluid, double k, double dt,
            int steps);

// The dam break from its release until T = t sqrt(2 g / a) reaches
// `samples` x 0.2 (a: the column's width; the column is 2a tall), with the
// viscosity mu = rho_0 alpha h c_0: the front Z = x / a
// (checks::sph::SurgeFront) at T = 0.2, 0.4, ... At most `max_steps` steps
// (0: no limit); a run stopped by it has fewer fronts. Throws Error
// ("step S: ...") for a state that blew up.
struct Surge {
  std::vector<double> t;  // T of each front
  std::vector<double> z;  // Z at that T
  double column_width = 0;
  double column_height = 0;
  int steps = 0;
  double seconds_per_step = 0;
};
inline constexpr int kSurgeSamples = 15;
inline constexpr double kSurgeSampleT = 0.2;
Surge RunSurge(const Variant& variant, std::size_t particles, double alpha,
               int max_steps = 0);

}  // namespace adj::sph::studies

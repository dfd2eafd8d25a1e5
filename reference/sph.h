#pragma once

// The sph oracle: one step of the fluid in double precision with
// brute-force neighbours (every pair tested, O(n^2)), on its own plain
// model, written from the contract in docs/sph.md apart from
// algorithms/sph. Small clouds only.

#include <array>
#include <cstdint>
#include <vector>

namespace adj::reference::sph {

using Vec = std::array<double, 3>;

struct Fluid {
  std::vector<Vec> x;
  std::vector<Vec> v;
  std::vector<double> density;  // of t-1 on input, of t0 on output
  std::vector<double> mass;
};

struct Walls {
  bool glass = false;  // else a box
  Vec lo{0, 0, 0};
  Vec hi{1, 1, 1};
  double restitution = 0;
};

struct Constants {
  double h = 0;
  double rest_density = 0;
  double stiffness = 0;
  double viscosity = 0;
  double dt = 0;
  Vec gravity{0, 0, 0};
  Walls walls;
};

// Which densities a force reads:
//   - kStart: the three passes (Algorithm 1): every density of the
//     positions the step starts from;
//   - kPrevious: Algorithm 3: every density of t-1 (the input's);
//   - kInPlace: Algorithm 2 in ascending order: particle i is stepped on
//     the fluid as particles 0..i-1 left it (moved, their density of t0),
//     the rest as given (t0, t-1), i's own density of t-1; a neighbour j <
//     i counts when its moved position is within h of x_i and its cell of
//     t0 is one of the 27 around x_i's.
enum class Reads { kStart, kPrevious, kInPlace };

struct Outcome {
  Fluid after;
  // The same step with the walls' decision reversed for every wall the
  // particle's unclamped new position lies within `wall_slack` of (hit
  // instead of missed, or missed instead of hit), and whether any did: a
  // float variant may round to the other side of such a wall.
  std::vector<Vec> alternative_x;
  std::vector<Vec> alternative_v;
  std::vector<bool> near_wall;
  // Per particle, the sum of the magnitudes of its acceleration's terms,
  // pressures widened by stiffness x (rho_i + rho_j) (the float
  // cancellation in rho - rho_0), plus |gravity|: what a float sum of
  // them can be off by, in units of its rounding.
  std::vector<double> acceleration_scale;
  // Pairs (i, j != i) within h that the forces summed.
  std::uint64_t interactions = 0;
};

// Densities of the positions: sum_j m_j W(|x_i - x_j|), r < h.
std::vector<double> Densities(const Fluid& fluid, const Constants& constants);

Outcome Step(const Fluid& before, const Constants& constants, Reads reads,
             double wall_slack);

}  // namespace adj::reference::sph

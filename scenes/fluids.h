#pragma once

// Fluid scenes for the sph family: particles on a cubic lattice and the
// container they sit in (a box, or a glass: the vertical cylinder
// inscribed in the box's x-z extent). Plain positions and numbers, so that
// the sph family knows no scene.

#include <array>
#include <cstddef>

#include "algorithms/common/points.h"

namespace adj::scenes {

struct FluidScene {
  Points positions;
  float spacing = 0;  // the lattice's
  std::array<float, 3> lo{0, 0, 0};
  std::array<float, 3> hi{0, 0, 0};
  bool glass = false;
  // The fluid's initial extent along y (its column height) and along x
  // (the dam break's column width; the glass's diameter).
  float height = 0;
  float width = 0;
};

// n particles at rest in a glass (the chapter's scene): a glass whose
// diameter is the fluid's height, twice as tall, its floor at y = 0,
// filled from the floor layer by layer, each layer's lattice points
// nearest the axis first, so the top layer is a disc. Particles sit half a
// spacing inside the floor and the wall. Both scenes throw
// std::invalid_argument for a spacing not finite and > 0, and
// adj::ResourceError, naming the size and the budget, where their
// positions (and the glass's layer) would exceed the memory budget
// (algorithms/common/memory_budget.h), before allocating them.
FluidScene GlassAtRest(std::size_t n, float spacing);

// A dam break (Martin and Moyce 1952's square column, height twice its
// width a): a column a x 2a x a of about n particles (2 k^3, k = the
// nearest integer to cbrt(n / 2)) in the corner x, y, z >= 0 of a box 5a
// long in x, 2.5a high and a deep, released at t = 0.
FluidScene DamBreak(std::size_t n, float spacing);

}  // namespace adj::scenes

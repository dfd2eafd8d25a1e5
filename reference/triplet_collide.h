#pragma once

// The oracle for triplet_collide: the collision pass of
// algorithms/triplet_collide/triplet_collide.h written out again from its
// specification, one triplet at a time, with plain loops and its own types
// (it shares no code with the algorithms). Every multiply, add, divide and
// square root is a separate float operation in the order the specification
// fixes (compiled with -ffp-contract=off), so the variants that claim
// exactness compare with it bit for bit.

#include <array>
#include <cstddef>
#include <span>
#include <string>

#include "algorithms/common/mesh.h"

namespace adj::reference {

struct CollisionSphere {
  std::array<float, 3> centre;
  float radius;
};

struct CollisionCapsule {
  std::array<float, 3> a;
  std::array<float, 3> b;
  float radius;
};

// Runs the pass over `order` (particles (x, y, z, invMass), dummies
// included; weights (w0, w1, w2, 1/|w|^2)), updating `particles`. Returns
// the number of triplets whose point was strictly inside at least one
// shape. Throws std::invalid_argument on an index out of range (it checks
// nothing else: feed it valid input).
std::size_t CollideTriplets(std::span<const Triplet> order,
                            std::span<const std::array<float, 4>> weights,
                            std::span<const CollisionSphere> spheres,
                            std::span<const CollisionCapsule> capsules,
                            std::span<std::array<float, 4>> particles);

// For passes whose result depends on the interleaving (atomic adds on
// several threads): "" when `got` is within what any interleaving of the
// pass over `order` from `before` can differ from `expected` (one such
// result, e.g. CollideTriplets'), else the first violation. Every push is
// at most R = the sum of all radii long, so particle p moves by at most
// B_p = sum over the slots k that name it of |w_k * s| * R: static
// particles (invMass 0) and particles in no triplet must be bit for bit as
// before, inverse masses unchanged, and each coordinate within 2 B_p plus
// the rounding of one add per slot (2^-22 of the magnitude each) of
// `expected`. Sound but loose: it catches lost, misdirected or wrongly
// scaled pushes far more than a push's length, not small ones.
std::string CheckInterleavingBound(
    std::span<const Triplet> order,
    std::span<const std::array<float, 4>> weights,
    std::span<const CollisionSphere> spheres,
    std::span<const CollisionCapsule> capsules,
    std::span<const std::array<float, 4>> before,
    std::span<const std::array<float, 4>> got,
    std::span<const std::array<float, 4>> expected);

}  // namespace adj::reference

#pragma once

// triplet_collide's verifier: a collision pass against the oracle's pass
// over the same order, bit for bit, or within the interleaving bound where
// the variant's result depends on how its threads interleave.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "algorithms/common/mesh.h"
#include "algorithms/triplet_collide/triplet_collide.h"

namespace adj::checks::triplet_collide {

using Particles = std::vector<adj::triplet_collide::Particle>;

// The oracle's pass (reference::CollideTriplets) over `order` from `before`:
// the particles after it and the triplets whose point hit a shape.
struct Expected {
  Particles particles;
  std::size_t collided = 0;
};
Expected ExpectedOf(std::span<const Triplet> order,
                    std::span<const adj::triplet_collide::Weight> weights,
                    const adj::triplet_collide::Shapes& shapes,
                    const Particles& before);

enum class Exactness {
  kBitwise,
  // Any interleaving of the pass: reference::CheckInterleavingBound.
  kWithinInterleavingBound,
};
// What `variant` promises on `triplet_count` triplets: bit for bit, except
// atomic_unscheduled once it forks (its atomic adds land in any order).
Exactness ExactnessOf(const adj::triplet_collide::Variant& variant,
                      std::size_t triplet_count);

// "" when `got`, the variant's pass over `order` from `before`, agrees with
// `expected` as `exactness` requires, static particles (invMass 0,
// dummies included) bit for bit as before either way; else the first
// difference in words.
std::string FirstDifference(
    std::span<const Triplet> order,
    std::span<const adj::triplet_collide::Weight> weights,
    const adj::triplet_collide::Shapes& shapes, const Particles& before,
    const Expected& expected, const Particles& got, Exactness exactness);

// "" when `a` and `b` are equal bit for bit, else the first difference with
// both values (decimal and hex).
std::string BitwiseDifference(const Particles& a, const Particles& b);

// The largest coordinate difference (x, y, z) between `a` and `b`.
double MaxError(const Particles& a, const Particles& b);

}  // namespace adj::checks::triplet_collide

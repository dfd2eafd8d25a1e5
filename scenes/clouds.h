#pragma once

// Synthetic point clouds for fixed-radius neighbour search, deterministic
// from their parameters and seed (raw mt19937_64 output, no
// implementation-defined distributions).

#include <cstddef>
#include <cstdint>

#include "algorithms/common/points.h"

namespace adj::scenes {

// n points uniform in the cube [0, side)^3; coordinates are multiples of
// side / 2^24 (exact floats for a power-of-two side).
Points UniformCloud(std::size_t n, float side, std::uint64_t seed);

// The side of the cube in which n uniform points have on average
// `neighbors` others within `radius`.
float UniformSideFor(std::size_t n, float radius, double neighbors);

// Ten Minute Physics 11 (hashing), initPhysics: balls of radius 0.025 on a
// lattice of spacing 3 x radius inside the world box [-1, 0, -1] - [1, 2, 1],
// 24^3 = 13,824 balls, x-major then y then z, positions computed in double
// and stored as floats as the demo's Float32Array does. The demo hashes with
// spacing 2 x radius, table 2N, and queries radius 2 x radius.
Points MullerBallsDemo();
constexpr float kMullerBallRadius = 0.025f;

// CompactNSearch's demo scene: the points (R (2i / (m - 1) - 1), likewise j,
// k), i, j, k < m, strictly inside the sphere of radius R = 0.15, in a
// seeded random order (seed 0: lattice order). Its search radius is two
// lattice spacings, CompactNSearchRadius(m).
Points CompactNSearchSphere(std::size_t points_across, std::uint64_t seed);
float CompactNSearchRadius(std::size_t points_across);

// `points` in a seeded random order (Fisher-Yates on raw engine output).
Points ShuffledPoints(const Points& points, std::uint64_t seed);

}  // namespace adj::scenes

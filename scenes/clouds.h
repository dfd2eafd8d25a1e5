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

// Ten Minute Physics 15 (self collision), the Cloth constructor: num_x by
// num_y particles, particle (i, j) with id i * num_y + j at
// (-num_x * spacing / 2 + i * spacing, 0.2 + j * spacing, 0), computed in
// double and stored as floats as the demo's Float32Array does. The demo's
// jitter (-2e-10 x Math.random(), "none" in effect:
// docs/sources/muller-dense-hash.md) is left out, so the layout is
// deterministic (in the demo it moves z to just below 0, one cell lower).
Points MullerCloth(std::size_t num_x, std::size_t num_y, double spacing);

// The demo itself: 30 x 200 = 6,000 particles at spacing (= thickness)
// 0.01 (the JavaScript number 0.01, a double). It hashes with that
// spacing, table 5N, and builds its half list at maxTravelDist = 0.2 x
// thickness / dt_sub x dt_frame = 0.02 = 2 x spacing.
Points MullerClothDemo();
constexpr std::size_t kMullerClothX = 30;
constexpr std::size_t kMullerClothY = 200;
constexpr double kMullerClothParticleSpacing = 0.01;
constexpr float kMullerClothSpacing = 0.01f;
constexpr float kMullerClothRadius = 0.02f;
constexpr std::uint32_t kMullerClothTableFactor = 5;

// MullerCloth(num_x, num_y, spacing) folded over itself along its length
// (j) into `layers` flat layers `gap` apart (an accordion: layer k lies at
// z = k x gap, running towards +y for even k and back for odd k), joined by
// half-circle bends of diameter gap. The fold is isometric: particle j sits
// at arc length j x spacing along the folded strip, so neighbours along the
// cloth stay `spacing` apart along it, and particles of different layers
// come within gap of each other: self-collision's hard case. x and the ids
// are MullerCloth's; one layer is MullerCloth exactly. Throws
// std::invalid_argument for layers == 0, gap or spacing not finite and > 0,
// or a cloth too short to make the layers (each layer must keep a straight
// part).
Points FoldedCloth(std::size_t num_x, std::size_t num_y, double spacing,
                   std::size_t layers, double gap);

// A search radius at which the particles of `points` have about
// `neighbors` others each: the median, over `samples` particles spread
// evenly through the ids, of the distance (in double) to the
// `neighbors`-th nearest other particle, by brute force (O(samples x N)).
// For real point sets and mesh vertices, whose scale and density vary.
// Throws std::invalid_argument when neighbors or samples is 0, when there
// are not more than `neighbors` points, or when the median is 0 (coincident
// copies).
float RadiusForNeighbors(const Points& points, std::size_t neighbors,
                         std::size_t samples = 257);

// `points` in a seeded random order (Fisher-Yates on raw engine output).
Points ShuffledPoints(const Points& points, std::uint64_t seed);

}  // namespace adj::scenes

#pragma once

// Synthetic triangle meshes, deterministic from their parameters and seed
// (raw mt19937_64 output, no implementation-defined distributions), so that a
// benchmark row or a counterexample names its scene completely.

#include <cstddef>
#include <cstdint>

#include "algorithms/common/mesh.h"

namespace adj::scenes {

// Every generator throws std::invalid_argument rather than produce indices
// that wrap at 2^32 or read a corner >= particles().

enum class Diagonals {
  kUniform,      // every quad split along (i, j) - (i + 1, j + 1)
  kAlternating,  // the split flips in a checkerboard, as cloth tools offer
};

// A cloth of width x height quads, two triangles per quad, particles
// (width + 1) x (height + 1) in row-major order at `spacing` in the z = 0
// plane. Quad (i, j) gives triangles 2q and 2q + 1 (q = j * width + i), both
// through its corner (i, j) when the diagonals are uniform: with 2 x 2 quads
// this is NvCloth's documented 3 x 3 example.
Mesh ClothGrid(std::size_t width, std::size_t height, Diagonals diagonals,
               float spacing = 0.01f);

// The same mesh with its particle ids and its triangle order permuted by
// seeded random permutations: what a mesh from a modelling tool looks like
// to a cache.
Mesh Shuffled(const Mesh& mesh, std::uint64_t seed);

// `triangle_count` triangles with corners drawn uniformly from
// `particle_count` particles (> 0 unless there are no triangles), positions
// in the unit cube. Corners may repeat: degenerate triangles included.
Mesh TriangleSoup(std::size_t triangle_count, std::size_t particle_count,
                  std::uint64_t seed);

// A disc of `rings` rings of `segments` particles around one centre
// particle: the centre belongs to `segments` triangles (segments >= 3).
Mesh Disc(std::size_t segments, std::size_t rings);

// Midpoint subdivision: each triangle becomes four, one new particle per
// edge (shared by the triangles on both sides). Triangles keep their
// orientation; degenerate ones subdivide into degenerate ones.
Mesh Subdivided(const Mesh& mesh);

// Subdivides until the mesh has at least `min_triangles` triangles (or it
// has none).
Mesh SubdividedTo(const Mesh& mesh, std::size_t min_triangles);

// NvCloth's VirtualParticleScene: one virtual particle per triangle, at its
// centroid: the triangle's corners with weight index 0 (weights 1/3 each).
std::vector<Triplet> VirtualParticles(const Mesh& mesh);

}  // namespace adj::scenes

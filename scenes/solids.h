#pragma once

// Voxelised solids for the fracture family: particles at the nodes of a
// regular grid (spacing 1), overlapping cube clusters, and the predicted
// positions a frame's damage detection reads (a blade cut, random damage).

#include <array>
#include <cstdint>
#include <vector>

#include "algorithms/common/csr.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"

namespace adj::scenes {

struct Voxels {
  std::array<std::uint32_t, 3> grid{0, 0, 0};
  // Node coordinates of the particles, x fastest, then y, then z.
  std::vector<std::array<std::uint32_t, 3>> cells;
};

// Every node of an nx x ny x nz block. Throws adj::ResourceError, naming
// the particle count, its bytes and the memory budget, before allocating
// where the particles (12 bytes each) exceed the budget.
Voxels Block(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz);

// Each node of an n^3 grid kept with probability `fill` (seeded).
Voxels RandomVoxels(std::uint32_t n, double fill, std::uint64_t seed);

// The published cluster layout: cubes of side `side` at every multiple of
// `stride` along each axis (overlapping when stride < side), each cut to the
// solid and split into its face-connected pieces; a row per piece, members
// ascending. Particles no cube reaches stay unclustered. Both cluster
// generators map every node of the grid to its particle (8 bytes a node)
// and throw adj::ResourceError where that map exceeds the memory budget,
// before allocating it.
Csr CubeClusters(const Voxels& voxels, std::uint32_t side,
                 std::uint32_t stride);

// Random boxes (up to `count`, sides 1 to max_side, seeded), each cut to the
// solid and split into face-connected pieces of fewer than max_size
// particles (pieces too large are dropped).
Csr RandomBoxClusters(const Voxels& voxels, std::uint32_t count,
                      std::uint32_t max_side, std::uint32_t max_size,
                      std::uint64_t seed);

// A blade: the plane x = plane_x (between nodes) cutting the z range
// [z_begin, z_end), moving down from the top of the grid by `speed` nodes
// per frame. At frame f every particle in that z range with y >= top - speed
// * f (the blade has passed it) is pushed away from the plane by half the
// blade's width.
struct Blade {
  float plane_x = 0;
  float width = 1;
  std::uint32_t z_begin = 0;
  std::uint32_t z_end = 0;
  float speed = 1;
};

// The particles' predicted positions in frame `frame` of the cut: rest
// position plus the push.
Points BladePositions(const Voxels& voxels, const Blade& blade,
                      std::uint32_t frame);

// Rest positions with `count` random particles (seeded) moved by
// `distance` along a random axis.
Points RandomDamage(const Voxels& voxels, std::uint32_t count, float distance,
                    std::uint64_t seed);

// A closed triangle mesh as voxels (voxelize.cc): node centres at
// lo + (i + 1/2) * spacing from the low corner of the used vertices'
// bounding box, a node kept when its centre is inside by the parity of a
// ray's crossings along +x (the ray moved off the row's centre by 1e-4 *
// sqrt(2) and sqrt(3) cells, so that axis-aligned models are not hit at
// their edges), then only the largest face-connected piece. Throws
// std::invalid_argument on no triangles, a corner past the vertices, a
// non-finite vertex, spacing not finite and > 0, more than 4096 nodes
// along an axis or 2^26 in all, or no node inside (an open mesh can give any
// result).
Voxels Voxelize(const Mesh& mesh, double spacing);

// Voxelize at the spacing (found by bisection) whose count is nearest to
// `particles`.
Voxels VoxelizeToCount(const Mesh& mesh, std::size_t particles);

// An impactor: a sphere above the solid at (center_x, grid y + radius,
// center_z) moving down by `speed` nodes per frame; every particle inside
// it is pushed down by `push`, so that damage detection finds the sphere's
// rim.
struct Impact {
  float center_x = 0;
  float center_z = 0;
  float radius = 4;
  float speed = 1;
  float push = 2;
};

// The particles' predicted positions in frame `frame` of the impact.
Points SpherePositions(const Voxels& voxels, const Impact& impact,
                       std::uint32_t frame);

}  // namespace adj::scenes

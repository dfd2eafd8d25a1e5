#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "algorithms/common/csr.h"
#include "algorithms/common/mesh.h"

namespace adj::reference {

// Particle -> incident triangles by the definition: for every particle, a
// plain scan of all triangles, listing each triangle once per corner that is
// the particle. Rows ascending. Indices >= particle_count are ignored (the
// caller checks them). O(particles x triangles / 4096): particles are taken
// 4096 at a time so that real meshes stay in reach.
Csr TriangleAdjacency(std::span<const Triangle> triangles,
                      std::size_t particle_count);

// `ascending` with every row reversed when `descending`: the oracle's rows in
// the order a variant declares (NvCloth's decrementing fill gives descending
// rows).
Csr InRowOrder(Csr ascending, bool descending);

// The longest row: NvCloth's maxAdjacentCount.
std::uint32_t LongestRow(const Csr& csr);

// Whether the triangles form an oriented 2-manifold (with or without
// boundary), the meshes a halfedge mesh (OpenMesh's, CGAL's Surface_mesh)
// holds: every triangle has three distinct corners, no directed edge is
// used twice (so an edge has at most two triangles, oriented alike), and
// the triangles around each particle form one fan (a single path or cycle
// of edges opposite it). Indices >= particle_count are ignored.
bool OrientedManifold(std::span<const Triangle> triangles,
                      std::size_t particle_count);

}  // namespace adj::reference

#pragma once

// Synthetic undirected graphs for connected components, as symmetric Csr
// (row v = the neighbours of v), deterministic from their parameters and
// seed (raw mt19937_64 output, no implementation-defined distributions), so
// that a benchmark row or a counterexample names its graph completely.
// Unless a generator says otherwise, rows are ascending, without repeats
// and without self loops (UndirectedGraph builds them). Every generator
// throws std::invalid_argument rather than produce ids or offsets that wrap
// at 2^32.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "algorithms/common/csr.h"
#include "algorithms/common/mesh.h"

namespace adj::scenes {

using Edge = std::array<std::uint32_t, 2>;

// The graph of `edges` on `vertices` vertices: each edge in both rows, self
// loops and repeated edges dropped, rows ascending. O(V + E): two counting
// passes (the second, a transpose, sorts the rows).
Csr UndirectedGraph(std::size_t vertices, std::span<const Edge> edges);

// `graph` with its vertex ids permuted by a seeded random permutation (rows
// ascending again): the same components, scattered over memory.
Csr Relabelled(const Csr& graph, std::uint64_t seed);

// `graph` plus `extra` repeats, each a self loop on a random vertex or a
// second copy of a random existing edge (in both rows), and every row
// shuffled: the input a simulation's bond lists may well produce. Still
// symmetric (u in row v as often as v in row u).
Csr WithRepeats(const Csr& graph, std::size_t extra, std::uint64_t seed);

// A 3D lattice of nx x ny x nz sites, each removed independently with
// probability `removal` (0 .. 1), 6-neighbour bonds between surviving
// sites. Survivors are numbered densely in lattice order (x slowest, z
// fastest), so memory order follows space. Near 3D site percolation
// (removal ~ 0.6884, occupancy 0.3116) there are many components and one
// giant; at removal 0.3 one giant and a few hundred small ones.
Csr LatticeWithRemovals(std::size_t nx, std::size_t ny, std::size_t nz,
                        double removal, std::uint64_t seed);

// The vertex graph of a triangle mesh: the edges of its triangles, on
// mesh.particles() vertices (degenerate triangles' self loops dropped).
Csr MeshVertexGraph(const Mesh& mesh);

// GAP's Kronecker (Graph500 R-MAT) graph: 2^scale vertices, degree x 2^scale
// edge draws, each descending `scale` quadrant levels with A = 0.57,
// B = C = 0.19 (D = 0.05, 16-bit resolution), then symmetrised and
// deduplicated, vertex ids permuted as GAP's PermuteIDs does. Many
// vertices stay isolated. scale <= 31.
Csr Kronecker(int scale, std::size_t degree, std::uint64_t seed);

// GAP's uniform random graph: degree x vertices edges with both ends
// uniform (multiply-shift), symmetrised and deduplicated.
Csr UniformRandomGraph(std::size_t vertices, std::size_t degree,
                       std::uint64_t seed);

// `components` components of 1 .. max_size vertices each (a random tree
// plus up to as many random extra edges inside it), their vertices
// scattered over the id range by a random permutation.
Csr TinyComponents(std::size_t components, std::size_t max_size,
                   std::uint64_t seed);

// One path 0 - 1 - ... - (vertices - 1). Relabelled(Path(n), seed) is the
// same path in shuffled vertex order.
Csr Path(std::size_t vertices);

// The fracture simulation's aggregated graph of overlapping clusters: a
// side^3 lattice of particles (each removed with probability `removal`),
// cubic clusters of cluster_side^3 sites whose origins are the multiples of
// `stride` below `side` (clipped at the lattice's end; they overlap when
// stride < cluster_side). A particle in k clusters becomes k vertices, one
// per cluster, numbered cluster by cluster (clusters x-major, then lattice
// order inside); the 6-neighbour bonds between surviving particles of the
// same cluster are its edges. Clusters never connect to each other: with
// no removal, the components are exactly the clusters.
Csr OverlappingClusters(std::size_t side, std::size_t cluster_side,
                        std::size_t stride, double removal, std::uint64_t seed);

// How many clusters OverlappingClusters(side, cluster_side, stride, ...)
// has: ceil(side / stride)^3.
std::size_t OverlappingClusterCount(std::size_t side, std::size_t stride);

}  // namespace adj::scenes

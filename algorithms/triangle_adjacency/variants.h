#pragma once

// Internal to the family: the implementations behind the table and their
// tuning hooks. The table's own file and the family's tests include it;
// the build refuses it anywhere else (everyone else goes through
// Variants()).

#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triangle_adjacency/vtk_bridge.h"

namespace adj::triangle_adjacency {

// The implementations, one file each; call them through Variants().
BuildFn NvClothBuild;
BuildFn OpenMpBuild;
BuildFn PartitionedBuild;

// PartitionedBuild's tuning, exposed so that tests can drive its block and
// thread logic with small meshes (blocks of 1 particle, a fork at 1
// triangle per thread).
struct PartitionedTuning {
  int block_shift = 13;  // blocks of 2^block_shift particles
  std::size_t min_triangles_per_thread = std::size_t{1} << 16;
};
void PartitionedBuildTuned(std::span<const Triangle> triangles,
                           std::size_t particle_count, Adjacency& out,
                           const PartitionedTuning& tuning);
// OpenMpBuild's tuning, exposed so that tests can drive its threaded paths
// (paired and lone threads, pairs meeting anywhere, merges over overlapping
// windows, errors) with small meshes.
struct OpenMpTuning {
  // Below this the fork, the barriers, and the cache lines both threads
  // write (rows hold one segment per thread) cost more than they save
  // (docs/triangle_adjacency.md#decisions-and-dead-ends).
  std::size_t min_triangles_per_thread = std::size_t{1} << 16;
  // What a thread of a pair claims at once; the second thread walks the
  // chunks backward, and the hardware prefetcher starts over at each
  // (docs/triangle_adjacency.md#decisions-and-dead-ends).
  std::size_t chunk_triangles = 32768;
  // Pairs meet wherever their work does on scattered meshes only (and never
  // when the fill is ranked); tests set this to drive the meeting on small
  // meshes, which never look scattered.
  bool meet_on_every_mesh = false;
  // Whether the fill places entries by rank: kAuto where a slice has
  // locality and the output aliases the triangles in the page (PageAliased
  // in openmp.cc), which depends on the allocator; tests force either fill.
  enum class RankedFill { kAuto, kAlways, kNever };
  RankedFill ranked_fill = RankedFill::kAuto;
  // Whether the decrementing fill on a slice with locality takes two
  // triangles at once where they share an edge as a quad's two halves do
  // (FillQuadPairs in openmp.cc); tests run it either way.
  bool paired_fill = true;
};
void OpenMpBuildTuned(std::span<const Triangle> triangles,
                      std::size_t particle_count, Adjacency& out,
                      const OpenMpTuning& tuning);
// Peers (origin kPeer): the library's links behind the family's contract;
// without it at build time they throw Unavailable.
BuildFn VtkStaticCellLinksBuild;
BuildFn VtkCellLinksBuild;
// Manifold-only peers (Traits::manifold_only): NotManifold for a triangle
// their halfedge mesh would not take.
BuildFn OpenMeshTriMeshBuild;
BuildFn CgalSurfaceMeshBuild;
// Both VTK rows: Check, then VTK's links of kind `links` read into out
// (vtk_rows.cc); out.threads is the caller's.
void BuildByVtk(vtk_bridge::Links links, std::span<const Triangle> triangles,
                std::size_t particle_count, Adjacency& out);
#if ADJ_HAVE_CUDA
BuildFn CudaBuild;
#endif

}  // namespace adj::triangle_adjacency

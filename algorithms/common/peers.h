#pragma once

// The libraries the peer rows call (origin `peer`: what people would use
// instead of the suite), each as the build found it. A peer row names its
// library (Variant::peer); where the build did not find it the row stays in
// the table and cannot run, saying which Debian package brings it
// (cmake/AdjacentPeers.cmake finds them; tools/install-deps.sh installs
// the default set).

#include <cstddef>
#include <string>
#include <string_view>

namespace adj::peers {

struct Library {
  std::string_view name;     // "Boost.Graph"
  std::string_view package;  // the Debian package: "libboost-graph-dev"
  // The version built against ("1.74.0"); empty when not found.
  std::string_view version;
  bool found() const { return !version.empty(); }
  // "Boost.Graph 1.74.0"
  std::string Describe() const {
    return std::string(name) + " " + std::string(version);
  }
};

const Library& BoostGraph();
// oneTBB's own algorithms and containers, on its own threads.
const Library& OneTbb();
// The C++17 parallel algorithms of libstdc++ (std::execution::par_unseq),
// which run on oneTBB: found with it.
const Library& StdParallel();
// Abseil's containers.
const Library& Abseil();
// nanoflann's k-d tree.
const Library& Nanoflann();
// Open3D: its tensor nearest-neighbour search and geometry::KDTreeFlann.
const Library& Open3d();
// CGAL's spatial searching and Surface_mesh.
const Library& Cgal();
// igraph's C library.
const Library& Igraph();
// VTK's cell links.
const Library& Vtk();
// OpenMesh's halfedge meshes.
const Library& OpenMesh();
// ColPack's graph colourings.
const Library& ColPack();
// The Point Cloud Library's k-d tree and octree searches.
const Library& Pcl();
// Thrust, from the CUDA toolkit's CCCL: its device algorithms.
const Library& Thrust();
// oneTBB's threads: what a peer running on them uses (Variant::threads).
int OneTbbThreads(std::size_t items);

}  // namespace adj::peers

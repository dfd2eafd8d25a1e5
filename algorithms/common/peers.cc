// Each peer's version from its own headers, where the build found it.
#include "algorithms/common/peers.h"

#include <string>

#if ADJ_HAVE_PEER_BOOST_GRAPH
#include <boost/version.hpp>
#endif
#if ADJ_HAVE_PEER_ABSEIL
#include <absl/base/config.h>
#endif
#if ADJ_HAVE_PEER_ONETBB
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/version.h>
#endif

namespace adj::peers {
const Library& BoostGraph() {
#if ADJ_HAVE_PEER_BOOST_GRAPH
  static_assert(BOOST_VERSION / 100000 == 1);
  static const std::string version =
      "1." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
      std::to_string(BOOST_VERSION % 100);
  static const Library library{"Boost.Graph", "libboost-graph-dev", version};
#else
  static const Library library{"Boost.Graph", "libboost-graph-dev", ""};
#endif
  return library;
}

#if ADJ_HAVE_PEER_ONETBB
namespace {

std::string TbbVersion() {
  return std::to_string(TBB_VERSION_MAJOR) + "." +
         std::to_string(TBB_VERSION_MINOR) + "." +
         std::to_string(TBB_VERSION_PATCH);
}

}  // namespace
#endif

const Library& OneTbb() {
#if ADJ_HAVE_PEER_ONETBB
  static const std::string version = TbbVersion();
  static const Library library{"oneTBB", "libtbb-dev", version};
#else
  static const Library library{"oneTBB", "libtbb-dev", ""};
#endif
  return library;
}

const Library& StdParallel() {
#if ADJ_HAVE_PEER_ONETBB
  static const std::string version =
      std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
      std::to_string(__GNUC_PATCHLEVEL__) + " over oneTBB " + TbbVersion();
  static const Library library{"libstdc++ std::execution", "libtbb-dev",
                               version};
#else
  static const Library library{"libstdc++ std::execution", "libtbb-dev", ""};
#endif
  return library;
}

const Library& Abseil() {
#if ADJ_HAVE_PEER_ABSEIL
  static const std::string version =
      std::to_string(ABSL_LTS_RELEASE_VERSION) + "." +
      std::to_string(ABSL_LTS_RELEASE_PATCH_LEVEL);
  static const Library library{"Abseil", "libabsl-dev", version};
#else
  static const Library library{"Abseil", "libabsl-dev", ""};
#endif
  return library;
}

// The peers peers.cc does not include: their CMake files' versions
// (cmake/AdjacentPeers.cmake's VERSION).
#if ADJ_HAVE_PEER_NANOFLANN
#define ADJ_NANOFLANN_VERSION ADJ_PEER_NANOFLANN_VERSION
#else
#define ADJ_NANOFLANN_VERSION ""
#endif
#if ADJ_HAVE_PEER_OPEN3D
#define ADJ_OPEN3D_VERSION ADJ_PEER_OPEN3D_VERSION
#else
#define ADJ_OPEN3D_VERSION ""
#endif
#if ADJ_HAVE_PEER_CGAL
#define ADJ_CGAL_VERSION ADJ_PEER_CGAL_VERSION
#else
#define ADJ_CGAL_VERSION ""
#endif
#if ADJ_HAVE_PEER_IGRAPH
#define ADJ_IGRAPH_VERSION ADJ_PEER_IGRAPH_VERSION
#else
#define ADJ_IGRAPH_VERSION ""
#endif
#if ADJ_HAVE_PEER_VTK
#define ADJ_VTK_VERSION ADJ_PEER_VTK_VERSION
#else
#define ADJ_VTK_VERSION ""
#endif
#if ADJ_HAVE_PEER_OPENMESH
#define ADJ_OPENMESH_VERSION ADJ_PEER_OPENMESH_VERSION
#else
#define ADJ_OPENMESH_VERSION ""
#endif
#if ADJ_HAVE_PEER_COLPACK
#define ADJ_COLPACK_VERSION ADJ_PEER_COLPACK_VERSION
#else
#define ADJ_COLPACK_VERSION ""
#endif
#if ADJ_HAVE_PEER_PCL
#define ADJ_PCL_VERSION ADJ_PEER_PCL_VERSION
#else
#define ADJ_PCL_VERSION ""
#endif
#if ADJ_HAVE_PEER_THRUST
#define ADJ_THRUST_VERSION ADJ_PEER_THRUST_VERSION
#else
#define ADJ_THRUST_VERSION ""
#endif

const Library& Nanoflann() {
  static const Library library{"nanoflann", "libnanoflann-dev",
                               ADJ_NANOFLANN_VERSION};
  return library;
}

const Library& Open3d() {
  static const Library library{"Open3D", "libopen3d-dev", ADJ_OPEN3D_VERSION};
  return library;
}

const Library& Cgal() {
  static const Library library{"CGAL", "libcgal-dev", ADJ_CGAL_VERSION};
  return library;
}

const Library& Igraph() {
  static const Library library{"igraph", "libigraph-dev", ADJ_IGRAPH_VERSION};
  return library;
}

const Library& Vtk() {
  static const Library library{"VTK", "libvtk9-dev", ADJ_VTK_VERSION};
  return library;
}

const Library& OpenMesh() {
  static const Library library{"OpenMesh", "libopenmesh-dev",
                               ADJ_OPENMESH_VERSION};
  return library;
}

const Library& ColPack() {
  static const Library library{"ColPack", "libcolpack-dev",
                               ADJ_COLPACK_VERSION};
  return library;
}

const Library& Pcl() {
  static const Library library{"PCL", "libpcl-dev", ADJ_PCL_VERSION};
  return library;
}

const Library& Thrust() {
  // NVIDIA's apt repository ships CCCL as cuda-cccl-<version>, pulled in by
  // its cuda-toolkit; Debian's nvidia-cuda-toolkit carries an older copy.
  static const Library library{"Thrust", "cuda-toolkit", ADJ_THRUST_VERSION};
  return library;
}

int OneTbbThreads(std::size_t /*items*/) {
#if ADJ_HAVE_PEER_ONETBB
  return tbb::info::default_concurrency();
#else
  return 1;
#endif
}

}  // namespace adj::peers

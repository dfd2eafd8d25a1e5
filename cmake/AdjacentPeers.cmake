# The peers: libraries people use instead of the suite, run as rows of the
# families' tables (origin `peer`). Each is a Debian package found here; for
# each, adj_peer_<id> is an INTERFACE target carrying its headers and
# libraries and ADJ_HAVE_PEER_<ID> (1 found, 0 missing). A family whose
# rows call a peer links it (adj_add_family's PEERS); a missing peer's rows
# stay in the table and say why they cannot run (algorithms/common/peers.h).
# tools/install-deps.sh installs the default set.

# adj_peer(<id> FOUND <bool> [VERSION <version>] [TARGETS <targets>...]
#          [DEPENDENCY <args>...])
# VERSION: the version the package's CMake files report, for a peer whose
# headers peers.cc should not include (a large library): peers.cc then
# gets ADJ_HAVE_PEER_<ID> and ADJ_PEER_<ID>_VERSION alone instead of
# linking the peer. DEPENDENCY: the find_dependency() arguments that find
# TARGETS again in a project using the installed package.
function(adj_peer id)
  cmake_parse_arguments(ARG "" "FOUND;VERSION" "TARGETS;DEPENDENCY" ${ARGN})
  string(TOUPPER "${id}" upper)
  add_library(adj_peer_${id} INTERFACE)
  if(ARG_VERSION)
    set_property(GLOBAL APPEND PROPERTY ADJ_PEERS_BY_VERSION ${id})
  endif()
  if(ARG_FOUND)
    target_link_libraries(adj_peer_${id} INTERFACE ${ARG_TARGETS})
    target_compile_definitions(adj_peer_${id} INTERFACE
                               ADJ_HAVE_PEER_${upper}=1)
    if(ARG_VERSION)
      set_property(GLOBAL APPEND PROPERTY ADJ_PEER_VERSION_DEFINITIONS
                   ADJ_HAVE_PEER_${upper}=1
                   "ADJ_PEER_${upper}_VERSION=\"${ARG_VERSION}\"")
    endif()
    string(STRIP "adjacent: peer ${id} ${ARG_VERSION}" found_message)
    message(STATUS "${found_message} found")
    if(ARG_DEPENDENCY)
      list(JOIN ARG_DEPENDENCY " " dependency)
      set_property(GLOBAL APPEND_STRING PROPERTY ADJ_PEER_DEPENDENCIES
                   "find_dependency(${dependency})\n")
    endif()
  else()
    target_compile_definitions(adj_peer_${id} INTERFACE
                               ADJ_HAVE_PEER_${upper}=0)
    if(ARG_VERSION)
      set_property(GLOBAL APPEND PROPERTY ADJ_PEER_VERSION_DEFINITIONS
                   ADJ_HAVE_PEER_${upper}=0)
    endif()
    message(STATUS "adjacent: peer ${id} not found: its rows will skip")
  endif()
  set_property(GLOBAL APPEND PROPERTY ADJ_PEERS ${id})
endfunction()

# Boost.Graph (libboost-graph-dev): header-only for what the rows call.
find_package(Boost 1.74 CONFIG QUIET)
set(boost_graph_found FALSE)
if(Boost_FOUND)
  find_path(ADJ_BOOST_GRAPH_INCLUDE boost/graph/connected_components.hpp
            HINTS ${Boost_INCLUDE_DIRS})
  if(ADJ_BOOST_GRAPH_INCLUDE)
    set(boost_graph_found TRUE)
  endif()
endif()
adj_peer(boost_graph FOUND ${boost_graph_found} TARGETS Boost::headers
         DEPENDENCY Boost 1.74 CONFIG)

# oneTBB (libtbb-dev): tbb::parallel_scan, its concurrent containers, and
# the backend of libstdc++'s parallel algorithms (std::execution), which
# the std_par rows need.
find_package(TBB 2021 CONFIG QUIET)
adj_peer(onetbb FOUND ${TBB_FOUND} TARGETS TBB::tbb
         DEPENDENCY TBB 2021 CONFIG)

# Abseil (libabsl-dev): absl::flat_hash_set.
find_package(absl CONFIG QUIET)
set(abseil_found FALSE)
if(absl_FOUND AND TARGET absl::flat_hash_set)
  set(abseil_found TRUE)
endif()
adj_peer(abseil FOUND ${abseil_found} TARGETS absl::flat_hash_set
         DEPENDENCY absl CONFIG)

# nanoflann (libnanoflann-dev): header-only k-d tree.
find_package(nanoflann CONFIG QUIET)
adj_peer(nanoflann FOUND ${nanoflann_FOUND} VERSION "${nanoflann_VERSION}"
         TARGETS nanoflann::nanoflann DEPENDENCY nanoflann CONFIG)

# Open3D (libopen3d-dev): its tensor fixed-radius search (a spatial hash on
# oneTBB's threads) and its geometry::KDTreeFlann.
find_package(Open3D CONFIG QUIET)
adj_peer(open3d FOUND ${Open3D_FOUND} VERSION "${Open3D_VERSION}"
         TARGETS Open3D::Open3D DEPENDENCY Open3D CONFIG)

# CGAL (libcgal-dev): header-only since 5.0; its Kd_tree and Surface_mesh.
# CGAL's CMake files warn about the build type and rounding unless told
# that the suite sets its own flags.
set(CGAL_DO_NOT_WARN_ABOUT_CMAKE_BUILD_TYPE TRUE)
set(CGAL_DATA_DIR "" CACHE INTERNAL "")
find_package(CGAL CONFIG QUIET)
adj_peer(cgal FOUND ${CGAL_FOUND} VERSION "${CGAL_VERSION}"
         TARGETS CGAL::CGAL DEPENDENCY CGAL CONFIG)

# ColPack (libcolpack-dev): no CMake package; its header and library found
# directly, its version from the Debian package (its headers carry none).
find_path(ADJ_COLPACK_INCLUDE ColPack/ColPackHeaders.h)
find_library(ADJ_COLPACK_LIBRARY ColPack)
set(colpack_found FALSE)
set(colpack_version "")
if(ADJ_COLPACK_INCLUDE AND ADJ_COLPACK_LIBRARY)
  set(colpack_found TRUE)
  execute_process(COMMAND dpkg-query -W "-f=\${Version}" libcolpack-dev
                  OUTPUT_VARIABLE colpack_version ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX REPLACE "-[^-]*$" "" colpack_version "${colpack_version}")
  if(NOT colpack_version)
    set(colpack_version "unknown")
  endif()
endif()
# The library by its path (Debian puts the headers on the default path), so
# that the installed package names nothing this project defines.
adj_peer(colpack FOUND ${colpack_found} VERSION "${colpack_version}"
         TARGETS "${ADJ_COLPACK_LIBRARY}")

# VTK (libvtk9-dev): vtkStaticCellLinks and vtkCellLinks, in
# CommonDataModel; its SMP tools on the backend VTK was built to default to.
find_package(VTK 9 CONFIG QUIET COMPONENTS CommonCore CommonDataModel)
adj_peer(vtk FOUND ${VTK_FOUND} VERSION "${VTK_VERSION}"
         TARGETS VTK::CommonCore VTK::CommonDataModel
         DEPENDENCY VTK 9 CONFIG COMPONENTS CommonCore CommonDataModel)

# OpenMesh (libopenmesh-dev): its TriMesh. Its CMake files carry no
# version; its headers' OM_VERSION (0xMMmmpp) does.
find_package(OpenMesh CONFIG QUIET)
set(openmesh_found FALSE)
set(openmesh_version "")
find_file(ADJ_OPENMESH_CONFIG OpenMesh/Core/System/config.h)
if(OpenMesh_FOUND AND TARGET OpenMeshCore AND ADJ_OPENMESH_CONFIG)
  file(STRINGS "${ADJ_OPENMESH_CONFIG}" om_version_line
       REGEX "^#define OM_VERSION 0x[0-9a-fA-F]+")
  if(om_version_line MATCHES "0x([0-9a-fA-F]+)")
    math(EXPR om_version "0x${CMAKE_MATCH_1}")
    math(EXPR om_major "${om_version} >> 16")
    math(EXPR om_minor "(${om_version} >> 8) & 255")
    math(EXPR om_patch "${om_version} & 255")
    set(openmesh_version "${om_major}.${om_minor}.${om_patch}")
    set(openmesh_found TRUE)
  endif()
endif()
adj_peer(openmesh FOUND ${openmesh_found} VERSION "${openmesh_version}"
         TARGETS OpenMeshCore DEPENDENCY OpenMesh CONFIG)

# igraph (libigraph-dev): its C API's connected components. Debian 12's
# igraph CMake target names libglpk.so and libplfit.so, which
# libigraph-dev does not bring, so the suite links the shared library by
# its path (its own dependencies resolve at run time) and takes only the
# version from the CMake package.
find_package(igraph 0.10 CONFIG QUIET)
find_path(ADJ_IGRAPH_INCLUDE igraph/igraph.h)
find_library(ADJ_IGRAPH_LIBRARY igraph)
set(igraph_found FALSE)
if(igraph_FOUND AND ADJ_IGRAPH_INCLUDE AND ADJ_IGRAPH_LIBRARY)
  set(igraph_found TRUE)
endif()
adj_peer(igraph FOUND ${igraph_found} VERSION "${igraph_VERSION}"
         TARGETS "${ADJ_IGRAPH_LIBRARY}")

# PCL (libpcl-dev, installed only with PEERS=all: it brings much of Boost
# and Qt): its KdTreeFLANN and octree radius searches. Only the three
# components the rows call are asked for, so that its CMake files look for
# no more than they need (Eigen, Boost, FLANN).
find_package(PCL 1.13 CONFIG QUIET COMPONENTS common kdtree octree)
adj_peer(pcl FOUND ${PCL_FOUND} VERSION "${PCL_VERSION}"
         TARGETS pcl_common pcl_kdtree pcl_octree
         DEPENDENCY PCL 1.13 CONFIG COMPONENTS common kdtree octree)

# Thrust (NVIDIA's CCCL, which comes with the CUDA toolkit beside CUB): its
# scan and copy_if on the device. Present wherever the CUDA rows are built,
# at the toolkit's CCCL version.
set(thrust_found FALSE)
set(thrust_version "")
if(ADJ_HAVE_CUDA AND CCCL_FOUND)
  set(thrust_found TRUE)
  string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.[0-9]+" thrust_version
         "${CCCL_VERSION}")
endif()
adj_peer(thrust FOUND ${thrust_found} VERSION "${thrust_version}")

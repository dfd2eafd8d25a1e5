# The peers: libraries people use instead of the suite, run as rows of the
# families' tables (origin `peer`). Each is a Debian package found here; for
# each, adj_peer_<id> is an INTERFACE target carrying its headers and
# libraries and ADJ_HAVE_PEER_<ID> (1 found, 0 missing). A family whose
# rows call a peer links it (adj_add_family's PEERS); a missing peer's rows
# stay in the table and say why they cannot run (algorithms/common/peers.h).
# tools/install-deps.sh installs the default set.

# adj_peer(<id> FOUND <bool> [TARGETS <targets>...] [DEPENDENCY <args>...])
# DEPENDENCY: the find_dependency() arguments that find TARGETS again in a
# project using the installed package.
function(adj_peer id)
  cmake_parse_arguments(ARG "" "FOUND" "TARGETS;DEPENDENCY" ${ARGN})
  string(TOUPPER "${id}" upper)
  add_library(adj_peer_${id} INTERFACE)
  if(ARG_FOUND)
    target_link_libraries(adj_peer_${id} INTERFACE ${ARG_TARGETS})
    target_compile_definitions(adj_peer_${id} INTERFACE
                               ADJ_HAVE_PEER_${upper}=1)
    message(STATUS "adjacent: peer ${id} found")
    if(ARG_DEPENDENCY)
      list(JOIN ARG_DEPENDENCY " " dependency)
      set_property(GLOBAL APPEND_STRING PROPERTY ADJ_PEER_DEPENDENCIES
                   "find_dependency(${dependency})\n")
    endif()
  else()
    target_compile_definitions(adj_peer_${id} INTERFACE
                               ADJ_HAVE_PEER_${upper}=0)
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

# Flags every target of the suite shares, and the helpers that create tests
# and benchmarks, so that a family's CMakeLists.txt is a list of files.

set(ADJ_CXX_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                     -Wno-sign-conversion)

include(GNUInstallDirs)

# Headers are included by their path from the repository's root
# ("algorithms/common/csr.h"); the installed package keeps those paths
# under <prefix>/include/adjacent (cmake/AdjacentInstall.cmake).
function(adj_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/adjacent>)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${ADJ_CXX_WARNINGS}>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${ADJ_WARNINGS_AS_ERRORS}>>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --expt-relaxed-constexpr
        -Xcompiler=-Wall,-Wextra>)
  if(ADJ_HAVE_CUDA)
    target_compile_definitions(${target} PUBLIC ADJ_HAVE_CUDA=1)
  endif()
endfunction()

# adj_add_test(<name> SOURCES ... [LIBS ...]): one GoogleTest executable whose
# tests ctest discovers one by one, so a skipped CUDA test shows as skipped.
function(adj_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  adj_target_defaults(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} rapidcheck_gtest
                        rapidcheck GTest::gtest GTest::gtest_main)
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
                       PROPERTIES TIMEOUT ${ADJ_TEST_TIMEOUT})
endfunction()

# adj_add_benchmark(<name> SOURCES ... [LIBS ...]): one Google Benchmark
# executable per family, named <family>_bench, with the suite's main.
function(adj_add_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  adj_target_defaults(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} adj_bench_main
                        benchmark::benchmark)
endfunction()

# adj_check_includes(<target> UNIT <name> DIRECTORY <dir> ALLOWED <regex>...):
# before <target> compiles, every file in <dir> may include (with quotes) only
# headers matching one of the ALLOWED regexes; anything else fails the build
# with the file and the header named. This is how the layering rules of
# docs/architecture.md (who may include whom) are enforced rather than
# reviewed.
function(adj_check_includes target)
  cmake_parse_arguments(ARG "" "UNIT;DIRECTORY" "ALLOWED" ${ARGN})
  file(GLOB files CONFIGURE_DEPENDS
       "${ARG_DIRECTORY}/*.h" "${ARG_DIRECTORY}/*.cuh"
       "${ARG_DIRECTORY}/*.cc" "${ARG_DIRECTORY}/*.cu")
  set(config "${CMAKE_CURRENT_BINARY_DIR}/${ARG_UNIT}_includes.cmake")
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${ARG_UNIT}_includes.ok")
  file(WRITE "${config}"
       "set(UNIT \"${ARG_UNIT}\")\nset(FILES \"${files}\")\n"
       "set(ALLOWED \"${ARG_ALLOWED}\")\nset(STAMP \"${stamp}\")\n")
  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND ${CMAKE_COMMAND} -DCONFIG=${config}
            -P ${PROJECT_SOURCE_DIR}/cmake/CheckIncludes.cmake
    DEPENDS ${files} "${config}" ${PROJECT_SOURCE_DIR}/cmake/CheckIncludes.cmake
    COMMENT "Checking what ${ARG_UNIT} includes"
    VERBATIM)
  add_custom_target(${target}_includes DEPENDS "${stamp}")
  add_dependencies(${target} ${target}_includes)
endfunction()

# adj_add_family(<name> SOURCES ... [CUDA_SOURCES ...] [DEPENDS <family>...]
#                [PUBLIC_HEADERS ...] [TABLES <function>...] [PEERS <id>...]
#                [FP_EXACT]): the
# family's own library, adj_<name>, from the files of algorithms/<name>/, and
# its entry in the registry of families.
#   DEPENDS         the families it builds on; it links them, and may include
#                   only their PUBLIC_HEADERS (besides algorithms/common and
#                   its own files): anything else fails the build.
#   PUBLIC_HEADERS  what other families and the layers above algorithms/ may
#                   include (default <name>.h); the family's other headers
#                   (variants.h: the implementations and tuning hooks) are
#                   for itself and its tests alone.
#   TABLES          the functions of <name>.h that return its variant tables
#                   (default Variants), in the order `adjacent variants` lists
#                   them.
#   CUDA_SOURCES    compiled only when the build has CUDA.
#   PEERS           the libraries its peer rows call (cmake/AdjacentPeers.cmake:
#                   adj_peer_<id>, with ADJ_HAVE_PEER_<ID> 1 or 0); linked
#                   privately, found or not.
#   FP_EXACT        every multiply and add rounded on its own (no contraction
#                   into FMA: -ffp-contract=off, nvcc --fmad=false), for
#                   families whose variants agree with each other bit for bit.
# Families are added in any order: adj_finish_families, called once all are
# added, links their DEPENDS, sets up their include checks and writes the
# registry's generated lists.
function(adj_add_family name)
  cmake_parse_arguments(ARG "FP_EXACT" ""
                        "SOURCES;CUDA_SOURCES;DEPENDS;PUBLIC_HEADERS;TABLES;PEERS"
                        ${ARGN})
  set(target adj_${name})
  add_library(${target} STATIC ${ARG_SOURCES})
  if(ADJ_HAVE_CUDA AND ARG_CUDA_SOURCES)
    target_sources(${target} PRIVATE ${ARG_CUDA_SOURCES})
    if(TARGET CCCL::CCCL)
      target_link_libraries(${target} PRIVATE CCCL::CCCL)
    endif()
  endif()
  adj_target_defaults(${target})
  target_link_libraries(${target} PUBLIC adj_common)
  foreach(peer IN LISTS ARG_PEERS)
    if(NOT TARGET adj_peer_${peer})
      message(FATAL_ERROR "family ${name}: PEERS ${peer}, which "
                          "cmake/AdjacentPeers.cmake does not define")
    endif()
    target_link_libraries(${target} PRIVATE adj_peer_${peer})
  endforeach()
  if(ARG_FP_EXACT)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>
      $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
  endif()
  if(NOT ARG_PUBLIC_HEADERS)
    set(ARG_PUBLIC_HEADERS ${name}.h)
  endif()
  if(NOT ARG_TABLES)
    set(ARG_TABLES Variants)
  endif()
  set_property(GLOBAL PROPERTY ADJ_PUBLIC_HEADERS_${name} ${ARG_PUBLIC_HEADERS})
  set_property(GLOBAL PROPERTY ADJ_DEPENDS_${name} ${ARG_DEPENDS})
  set_property(GLOBAL PROPERTY ADJ_TABLES_${name} ${ARG_TABLES})
  set_property(GLOBAL PROPERTY ADJ_DIRECTORY_${name}
               ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(GLOBAL APPEND PROPERTY ADJ_FAMILIES ${name})
  target_link_libraries(adj_algorithms INTERFACE ${target})
endfunction()

# adj_camel_case(<out> <name>): triangle_adjacency -> TriangleAdjacency.
function(adj_camel_case out name)
  string(REPLACE "_" ";" words "${name}")
  set(camel "")
  foreach(word IN LISTS words)
    string(SUBSTRING "${word}" 0 1 first)
    string(SUBSTRING "${word}" 1 -1 rest)
    string(TOUPPER "${first}" first)
    string(APPEND camel "${first}${rest}")
  endforeach()
  set(${out} "${camel}" PARENT_SCOPE)
endfunction()

# adj_finish_families(): after every adj_add_family. Links each family to its
# DEPENDS, checks what it includes, and writes the registry: under
# <build>/generated/registry/, the one list of families every layer reads
#   families.inc        ADJ_FAMILY(<name>, <CamelName>) per family
#   variant_tables.inc  ADJ_VARIANT_TABLE(<name>, <function>) per table
#   family_headers.inc  #include "algorithms/<name>/<name>.h" per family
# (X-macro lists: the includer defines the macro). CMake code reads the
# same list from the global property ADJ_FAMILIES.
function(adj_finish_families)
  get_property(families GLOBAL PROPERTY ADJ_FAMILIES)
  list(SORT families)
  set_property(GLOBAL PROPERTY ADJ_FAMILIES ${families})
  set(header "// Generated by cmake/AdjacentTargets.cmake from the adj_add_family calls\n// of algorithms/*/CMakeLists.txt; edit those, not this.\n")
  set(family_list "${header}")
  set(table_list "${header}")
  set(header_list "${header}")
  set(public_includes "algorithms/common/.*")
  foreach(name IN LISTS families)
    get_property(public_headers GLOBAL PROPERTY ADJ_PUBLIC_HEADERS_${name})
    foreach(public_header IN LISTS public_headers)
      string(REPLACE "." "[.]" public_header "${public_header}")
      list(APPEND public_includes "algorithms/${name}/${public_header}")
    endforeach()
    set(allowed "algorithms/common/.*" "algorithms/${name}/.*")
    get_property(dependencies GLOBAL PROPERTY ADJ_DEPENDS_${name})
    foreach(dependency IN LISTS dependencies)
      if(NOT dependency IN_LIST families)
        message(FATAL_ERROR "family ${name}: DEPENDS ${dependency}, which is "
                            "no family (no adj_add_family(${dependency}))")
      endif()
      target_link_libraries(adj_${name} PUBLIC adj_${dependency})
      get_property(headers GLOBAL PROPERTY ADJ_PUBLIC_HEADERS_${dependency})
      foreach(public_header IN LISTS headers)
        string(REPLACE "." "[.]" public_header "${public_header}")
        list(APPEND allowed "algorithms/${dependency}/${public_header}")
      endforeach()
    endforeach()
    get_property(directory GLOBAL PROPERTY ADJ_DIRECTORY_${name})
    adj_check_includes(adj_${name} UNIT ${name} DIRECTORY ${directory}
                       ALLOWED ${allowed})
    adj_camel_case(camel ${name})
    string(APPEND family_list "ADJ_FAMILY(${name}, ${camel})\n")
    get_property(tables GLOBAL PROPERTY ADJ_TABLES_${name})
    foreach(table IN LISTS tables)
      string(APPEND table_list "ADJ_VARIANT_TABLE(${name}, ${table})\n")
    endforeach()
    string(APPEND header_list
           "#include \"algorithms/${name}/${name}.h\"\n")
  endforeach()
  # What the layers above algorithms/ may include of it: common, and each
  # family's PUBLIC_HEADERS; the rest of a family's folder (variants.h, its
  # helpers) is internal to it and its tests (properties/).
  set_property(GLOBAL PROPERTY ADJ_PUBLIC_INCLUDES ${public_includes})
  set(generated ${PROJECT_BINARY_DIR}/generated/registry)
  # file(CONFIGURE) leaves an unchanged file untouched: nothing rebuilds
  # when the families stay the same.
  file(CONFIGURE OUTPUT ${generated}/families.inc CONTENT "${family_list}" @ONLY)
  file(CONFIGURE OUTPUT ${generated}/variant_tables.inc
       CONTENT "${table_list}" @ONLY)
  file(CONFIGURE OUTPUT ${generated}/family_headers.inc
       CONTENT "${header_list}" @ONLY)
endfunction()

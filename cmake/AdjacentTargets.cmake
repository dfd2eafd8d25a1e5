# Flags every target of the suite shares, and the helpers that create tests
# and benchmarks, so that a family's CMakeLists.txt is a list of files.

set(ADJ_CXX_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                     -Wno-sign-conversion)

function(adj_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
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
#                [PUBLIC_HEADERS ...] [FP_EXACT]): the family's own library,
# adj_<name>, from the files of algorithms/<name>/.
#   DEPENDS         the families it builds on; it links them, and may include
#                   only their PUBLIC_HEADERS (besides algorithms/common and
#                   its own files): anything else fails the build.
#   PUBLIC_HEADERS  what other families may include (default <name>.h).
#   CUDA_SOURCES    compiled only when the build has CUDA.
#   FP_EXACT        every multiply and add rounded on its own (no contraction
#                   into FMA: -ffp-contract=off, nvcc --fmad=false), for
#                   families whose variants agree with each other bit for bit.
# Families must be added after the families they depend on.
function(adj_add_family name)
  cmake_parse_arguments(ARG "FP_EXACT" ""
                        "SOURCES;CUDA_SOURCES;DEPENDS;PUBLIC_HEADERS" ${ARGN})
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
  set(allowed "algorithms/common/.*" "algorithms/${name}/.*")
  foreach(dependency IN LISTS ARG_DEPENDS)
    if(NOT TARGET adj_${dependency})
      message(FATAL_ERROR "family ${name}: DEPENDS ${dependency}, which is "
                          "not a family added before it")
    endif()
    target_link_libraries(${target} PUBLIC adj_${dependency})
    get_property(headers GLOBAL PROPERTY ADJ_PUBLIC_HEADERS_${dependency})
    foreach(header IN LISTS headers)
      string(REPLACE "." "[.]" header "${header}")
      list(APPEND allowed "algorithms/${dependency}/${header}")
    endforeach()
  endforeach()
  if(ARG_FP_EXACT)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>
      $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
  endif()
  if(NOT ARG_PUBLIC_HEADERS)
    set(ARG_PUBLIC_HEADERS ${name}.h)
  endif()
  set_property(GLOBAL PROPERTY ADJ_PUBLIC_HEADERS_${name} ${ARG_PUBLIC_HEADERS})
  set_property(GLOBAL APPEND PROPERTY ADJ_FAMILIES ${name})
  adj_check_includes(${target} UNIT ${name}
                     DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} ALLOWED ${allowed})
  target_link_libraries(adj_algorithms INTERFACE ${target})
endfunction()

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
                       PROPERTIES TIMEOUT 600)
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

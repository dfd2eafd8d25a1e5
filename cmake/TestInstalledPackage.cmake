# ctest install.check_your_grid: a project outside the tree finds the
# installed package and checks its own code with it. Installs BUILD_DIR
# into SCRATCH/prefix, configures and builds examples/check_your_grid
# against it (find_package(adjacent)), and runs it: its correct search
# must agree with the oracle, each planted bug must be caught with the
# first difference named; and every installed header compiles on its own
# include path (none includes what was not installed). Run with cmake -P and -D SOURCE_DIR, BUILD_DIR,
# SCRATCH, CXX_COMPILER, CXX_FLAGS, LINKER_FLAGS, BUILD_TYPE.
file(REMOVE_RECURSE ${SCRATCH})

function(run_or_fail what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status
                  OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${output}")
  endif()
endfunction()

run_or_fail("cmake --install"
  ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${SCRATCH}/prefix)
# Every installed header, included by one translation unit of a scratch
# project that knows only the installed package.
set(include_dir ${SCRATCH}/prefix/include/adjacent)
file(GLOB_RECURSE headers RELATIVE ${include_dir} ${include_dir}/*.h)
set(every "")
foreach(header IN LISTS headers)
  string(APPEND every "#include \"${header}\"\n")
endforeach()
file(WRITE ${SCRATCH}/headers/every_header.cc "${every}")
file(WRITE ${SCRATCH}/headers/CMakeLists.txt
  "cmake_minimum_required(VERSION 3.25)\n"
  "project(every_header LANGUAGES CXX)\n"
  "find_package(adjacent CONFIG REQUIRED)\n"
  "add_library(every_header OBJECT every_header.cc)\n"
  "target_link_libraries(every_header PRIVATE adjacent::checks "
  "adjacent::scenes)\n")
run_or_fail("configuring a project of every installed header"
  ${CMAKE_COMMAND} -S ${SCRATCH}/headers -B ${SCRATCH}/headers/build
  -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
run_or_fail("compiling every installed header"
  ${CMAKE_COMMAND} --build ${SCRATCH}/headers/build)

run_or_fail("configuring the example against the installed package"
  ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/check_your_grid
  -B ${SCRATCH}/build -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}" -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
run_or_fail("building the example" ${CMAKE_COMMAND} --build ${SCRATCH}/build)

foreach(case "none;0;agrees with the oracle on 1024 points"
             "truncate;1;differs from the oracle: particle 513: expected"
             "strict;1;differs from the oracle: particle 0: expected [1, 8, 64, 512], got [512]"
             "drop-last;1;differs from the oracle: particle 0: expected [1, 8, 64, 512], got [1, 8, 64]")
  list(GET case 0 bug)
  list(GET case 1 expected_status)
  list(GET case 2 expected_output)
  execute_process(COMMAND ${SCRATCH}/build/check_your_grid --bug ${bug}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  string(FIND "${output}" "${expected_output}" at)
  if(NOT status EQUAL expected_status OR at EQUAL -1)
    message(FATAL_ERROR "check_your_grid --bug ${bug}: exit ${status}, "
                        "expected ${expected_status} and "
                        "\"${expected_output}\"; it said:\n${output}")
  endif()
  message(STATUS "--bug ${bug}: ${output}")
endforeach()

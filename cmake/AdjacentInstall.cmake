# The installed package, for checking code outside this tree against the
# suite's verifiers: `cmake --install build/default --prefix P`, then in
# another project
#   find_package(adjacent CONFIG REQUIRED)   # CMAKE_PREFIX_PATH=P
#   target_link_libraries(my_test PRIVATE adjacent::checks adjacent::scenes)
# gives the verifiers (checks/), their oracles (reference/), the scene
# generators and loaders (scenes/), every family's library and public
# headers (adjacent::algorithms, or adjacent::<family>) and the common
# types. Headers keep their repository paths under include/adjacent; a
# family's internal headers (variants.h) are not installed.
# docs/check-your-code.md shows it on examples/check_your_grid.
include(CMakePackageConfigHelpers)

set(ADJ_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/adjacent)
set(ADJ_INSTALL_CONFIGDIR ${CMAKE_INSTALL_LIBDIR}/cmake/adjacent)

get_property(families GLOBAL PROPERTY ADJ_FAMILIES)
set(exported adj_common adj_algorithms adj_reference adj_checks adj_scenes)
foreach(family IN LISTS families)
  list(APPEND exported adj_${family})
endforeach()
# The peers' INTERFACE targets (cmake/AdjacentPeers.cmake), which the
# families with peer rows link.
get_property(peers GLOBAL PROPERTY ADJ_PEERS)
foreach(peer IN LISTS peers)
  list(APPEND exported adj_peer_${peer})
endforeach()
foreach(target IN LISTS exported)
  string(REGEX REPLACE "^adj_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
install(TARGETS ${exported} EXPORT adjacentTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

file(GLOB common_headers ${PROJECT_SOURCE_DIR}/algorithms/common/*.h)
install(FILES ${common_headers}
        DESTINATION ${ADJ_INSTALL_INCLUDEDIR}/algorithms/common)
foreach(family IN LISTS families)
  get_property(directory GLOBAL PROPERTY ADJ_DIRECTORY_${family})
  get_property(public_headers GLOBAL PROPERTY ADJ_PUBLIC_HEADERS_${family})
  list(TRANSFORM public_headers PREPEND ${directory}/)
  install(FILES ${public_headers}
          DESTINATION ${ADJ_INSTALL_INCLUDEDIR}/algorithms/${family})
endforeach()
foreach(layer reference checks scenes)
  file(GLOB layer_headers ${PROJECT_SOURCE_DIR}/${layer}/*.h)
  install(FILES ${layer_headers} DESTINATION ${ADJ_INSTALL_INCLUDEDIR}/${layer})
endforeach()

# What the installed targets need found again in the project that uses
# them, as this build found it.
get_property(ADJ_PEER_DEPENDENCIES GLOBAL PROPERTY ADJ_PEER_DEPENDENCIES)
set(ADJ_INSTALLED_WITH_CCCL OFF)
if(ADJ_HAVE_CUDA AND TARGET CCCL::CCCL)
  set(ADJ_INSTALLED_WITH_CCCL ON)
endif()
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/adjacentConfig.cmake.in
  ${PROJECT_BINARY_DIR}/adjacentConfig.cmake
  INSTALL_DESTINATION ${ADJ_INSTALL_CONFIGDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/adjacentConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(EXPORT adjacentTargets NAMESPACE adjacent::
        DESTINATION ${ADJ_INSTALL_CONFIGDIR})
install(FILES ${PROJECT_BINARY_DIR}/adjacentConfig.cmake
              ${PROJECT_BINARY_DIR}/adjacentConfigVersion.cmake
        DESTINATION ${ADJ_INSTALL_CONFIGDIR})

# The package as a user meets it: installed into a scratch prefix and found
# by examples/check_your_grid, whose planted bugs it must catch.
if(NOT ADJ_FUZZ)
  add_test(NAME install.check_your_grid
           COMMAND ${CMAKE_COMMAND}
                   -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                   -DBUILD_DIR=${PROJECT_BINARY_DIR}
                   -DSCRATCH=${PROJECT_BINARY_DIR}/install-test
                   -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
                   "-DCXX_FLAGS=${CMAKE_CXX_FLAGS}"
                   "-DLINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS}"
                   -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
                   -P ${PROJECT_SOURCE_DIR}/cmake/TestInstalledPackage.cmake)
  set_tests_properties(install.check_your_grid PROPERTIES TIMEOUT 600)
endif()

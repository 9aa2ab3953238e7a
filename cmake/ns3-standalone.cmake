# What an ns-3 source tree gives a module's CMakeLists.txt, rebuilt on top of the installed
# ns-3.37: the ${lib<module>} variables, build_lib, build_lib_example and build_example.
#
# Differences from ns-3's own build (kept deliberately small):
#  - libraries are named libns3.37-<module>.so and live in build/lib;
#  - public headers are copied to build/include/ns3 at configure time, and
#    build/include/ns3/<module>-module.h is generated;
#  - test sources go into a library lib<module>-test that the test runner links.

find_package(ns3 3.37 REQUIRED)
include(GNUInstallDirs)
find_package(Boost 1.74 REQUIRED)

# Debian built ns-3 with logging on: consumers must agree, or class layouts differ.
add_compile_definitions(NS3_LOG_ENABLE)
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  add_compile_definitions(NS3_ASSERT_ENABLE)
endif()

set(NS3_VER 3.37)
set(GSN_OUTPUT_INCLUDE ${CMAKE_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${GSN_OUTPUT_INCLUDE}/ns3)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_BUILD_RPATH ${CMAKE_BINARY_DIR}/lib)

# ${libcore}, ${libnetwork}, ... name the installed ns-3 modules, as in an ns-3 tree.
foreach(
  _mod
  core network internet applications point-to-point csma bridge stats flow-monitor
  traffic-control nix-vector-routing internet-apps mobility netanim)
  set(lib${_mod} ns3::lib${_mod})
endforeach()

# fd-net-device (FdNetDevice, EmuFdNetDeviceHelper): Debian's ns-3 has it; examples that need
# it are built only when it is there.
if(TARGET ns3::libfd-net-device)
  set(libfd-net-device ns3::libfd-net-device)
endif()

# The project's own modules, named before any is built (as an ns-3 tree names every module
# first), so that a module can link one configured after it (harp links st).
foreach(_mod gsn st harp)
  set(lib${_mod} lib${_mod} CACHE INTERNAL "ns-3 module ${_mod}")
endforeach()

# Every test library, so that the test runner links all of them.
set_property(GLOBAL PROPERTY GSN_TEST_LIBRARIES "")

function(_gsn_copy_headers module)
  foreach(_h ${ARGN})
    get_filename_component(_name ${_h} NAME)
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${_h} ${GSN_OUTPUT_INCLUDE}/ns3/${_name} COPYONLY)
  endforeach()
endfunction()

function(build_lib)
  cmake_parse_arguments(
    BLIB "IGNORE_PCH" "LIBNAME"
    "SOURCE_FILES;HEADER_FILES;PRIVATE_HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES;DEPRECATED_HEADER_FILES;MODULE_ENABLED_FEATURES"
    ${ARGN})
  set(_target lib${BLIB_LIBNAME})
  add_library(${_target} SHARED ${BLIB_SOURCE_FILES})
  # Installed, a module finds the modules it links (and libns3.37-mpi) beside it: a program's
  # RUNPATH does not serve its libraries' own dependencies.
  set_target_properties(${_target} PROPERTIES OUTPUT_NAME ns${NS3_VER}-${BLIB_LIBNAME}
                                              INSTALL_RPATH "$ORIGIN")
  target_include_directories(${_target} PUBLIC $<BUILD_INTERFACE:${GSN_OUTPUT_INCLUDE}>
                                               $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # Debian's ns-3 was built with logging on: every user of the module must agree.
  target_compile_definitions(${_target} PUBLIC NS3_LOG_ENABLE)
  target_link_libraries(${_target} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  _gsn_copy_headers(${BLIB_LIBNAME} ${BLIB_HEADER_FILES} ${BLIB_PRIVATE_HEADER_FILES})

  # The aggregate header, as ns-3 generates it.
  set(_agg "#ifdef NS3_MODULE_COMPILATION\n")
  string(APPEND _agg "#error \"Do not include ns3 module aggregator headers from other modules\"\n")
  string(APPEND _agg "#endif\n#ifndef NS3_${BLIB_LIBNAME}_MODULE_H\n#define NS3_${BLIB_LIBNAME}_MODULE_H\n")
  foreach(_h ${BLIB_HEADER_FILES})
    get_filename_component(_name ${_h} NAME)
    string(APPEND _agg "#include \"${_name}\"\n")
  endforeach()
  string(APPEND _agg "#endif\n")
  file(GENERATE OUTPUT ${GSN_OUTPUT_INCLUDE}/ns3/${BLIB_LIBNAME}-module.h CONTENT "${_agg}")

  set(lib${BLIB_LIBNAME} ${_target} CACHE INTERNAL "ns-3 module ${BLIB_LIBNAME}")

  # cmake --install: the library, its public headers and the aggregate header, in the
  # exported package (ns3::lib<module>, cmake/gsn-ns3-config.cmake.in).
  install(TARGETS ${_target} EXPORT gsn-ns3-targets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${BLIB_HEADER_FILES} ${GSN_OUTPUT_INCLUDE}/ns3/${BLIB_LIBNAME}-module.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)

  if(GSN_ENABLE_TESTS AND BLIB_TEST_SOURCES)
    add_library(${_target}-test SHARED ${BLIB_TEST_SOURCES})
    set_target_properties(${_target}-test PROPERTIES OUTPUT_NAME ns${NS3_VER}-${BLIB_LIBNAME}-test)
    target_compile_definitions(${_target}-test
                               PRIVATE NS_TEST_SOURCEDIR="${CMAKE_CURRENT_SOURCE_DIR}/test")
    target_link_libraries(${_target}-test PUBLIC ${_target})
    set_property(GLOBAL APPEND PROPERTY GSN_TEST_LIBRARIES ${_target}-test)
  endif()

  # As in an ns-3 tree, a module's examples/ folder is added by build_lib itself.
  if(GSN_ENABLE_EXAMPLES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()
endfunction()

# An example of a module (src/<module>/examples): build/examples/<name>.
function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  if(NOT GSN_ENABLE_EXAMPLES)
    return()
  endif()
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  target_link_libraries(${BLIB_EXAMPLE_NAME} PRIVATE ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  set_target_properties(${BLIB_EXAMPLE_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                                          ${CMAKE_BINARY_DIR}/examples)
endfunction()

# A top-level example (examples/): same output folder as module examples.
function(build_example)
  cmake_parse_arguments(EXAMPLE "" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  build_lib_example(NAME ${EXAMPLE_NAME} SOURCE_FILES ${EXAMPLE_SOURCE_FILES}
                    LIBRARIES_TO_LINK ${EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

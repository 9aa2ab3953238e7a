# ns-3's distributed simulator (the mpi module: DistributedSimulatorImpl, NullMessageSimulatorImpl,
# MpiInterface, MpiReceiver), which Debian built ns-3.37 without: its src/mpi/model is compiled
# from Debian's ns3 source package of the same release (tools/fetch-ns3-source.sh fetches it into
# the build directory at configure time; nothing of it is in this repository) into
# libns3.37-mpi, linked against the installed ns-3 and Debian's OpenMPI. Its headers are copied
# to build/include/ns3, so "ns3/mpi-interface.h" works as in an ns-3 tree.
#
# Gives what an ns-3 tree configured with --enable-mpi gives a module: NS3_MPI (ON) and
# ${libmpi}. The NS3_MPI define is not added to every target (it would change the flags of the
# whole build); the targets that use MPI add it themselves (src/gsn/CMakeLists.txt, examples).
find_package(MPI COMPONENTS CXX QUIET)
set(_gsn_mpi_default OFF)
if(MPI_CXX_FOUND)
  set(_gsn_mpi_default ON)
endif()
option(GSN_ENABLE_MPI
       "Build ns-3's mpi module from Debian's ns3 source package and the distributed GSN cable (needs libopenmpi-dev)"
       ${_gsn_mpi_default})
set(NS3_MPI OFF)

if(GSN_ENABLE_MPI AND NOT MPI_CXX_FOUND)
  message(STATUS "GSN_ENABLE_MPI: no C++ MPI found (install libopenmpi-dev openmpi-bin); MPI off")
elseif(GSN_ENABLE_MPI)
  set(GSN_NS3_SOURCE_DIR ${CMAKE_BINARY_DIR}/ns3-source CACHE PATH
      "Where Debian's ns3 source package is fetched and unpacked (GSN_ENABLE_MPI)")
  set(_mpi_src ${GSN_NS3_SOURCE_DIR}/ns3-3.37/ns-3.37/src/mpi/model)
  if(NOT EXISTS ${_mpi_src}/mpi-interface.cc)
    message(STATUS "GSN_ENABLE_MPI: fetching Debian's ns3 source package into ${GSN_NS3_SOURCE_DIR}")
    execute_process(
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/fetch-ns3-source.sh ${GSN_NS3_SOURCE_DIR}
      RESULT_VARIABLE _fetch_rc ERROR_VARIABLE _fetch_err)
  endif()
  if(NOT EXISTS ${_mpi_src}/mpi-interface.cc)
    message(WARNING "GSN_ENABLE_MPI: no ns-3.37 source (apt-get source ns3 failed: ${_fetch_err}); "
                    "building without MPI")
  else()
    set(NS3_MPI ON)
    set(_mpi_sources
        distributed-simulator-impl.cc granted-time-window-mpi-interface.cc mpi-interface.cc
        mpi-receiver.cc null-message-mpi-interface.cc null-message-simulator-impl.cc
        remote-channel-bundle-manager.cc remote-channel-bundle.cc)
    list(TRANSFORM _mpi_sources PREPEND ${_mpi_src}/)
    add_library(libmpi SHARED ${_mpi_sources})
    set_target_properties(libmpi PROPERTIES OUTPUT_NAME ns${NS3_VER}-mpi)
    # ns-3's own code, built as it is: its warnings are not this project's.
    target_compile_options(libmpi PRIVATE -w)
    target_compile_definitions(libmpi PRIVATE NS3_MPI)
    target_include_directories(libmpi PUBLIC $<BUILD_INTERFACE:${GSN_OUTPUT_INCLUDE}>
                                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    # PRIVATE: MPI's include path would otherwise reach every target linking libmpi.
    target_link_libraries(libmpi PUBLIC ns3::libcore ns3::libnetwork PRIVATE MPI::MPI_CXX)
    foreach(_h mpi-interface.h mpi-receiver.h parallel-communication-interface.h)
      configure_file(${_mpi_src}/${_h} ${GSN_OUTPUT_INCLUDE}/ns3/${_h} COPYONLY)
      install(FILES ${_mpi_src}/${_h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
    endforeach()
    install(TARGETS libmpi EXPORT gsn-ns3-targets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    set(libmpi libmpi)
    message(STATUS "GSN_ENABLE_MPI: ns-3's mpi module from ${_mpi_src}")

    # The synchronisation profile (tools/mpi-sync-profile.cc): a library loaded with
    # LD_PRELOAD that counts the MPI calls of ns-3's synchronisation through MPI's profiling
    # interface (src/gsn/doc/gsn-distributed.rst). A measuring tool: not installed.
    add_library(gsn-mpi-sync-profile SHARED ${CMAKE_CURRENT_SOURCE_DIR}/tools/mpi-sync-profile.cc)
    target_compile_definitions(gsn-mpi-sync-profile PRIVATE OMPI_SKIP_MPICXX MPICH_SKIP_MPICXX)
    target_link_libraries(gsn-mpi-sync-profile PRIVATE MPI::MPI_CXX)
  endif()
endif()

# The CMake package (find_package(cmh)), the pkg-config files and the Debian package.
#
# cmh_export(<target> NAME <name>)
#   The one line that makes a target part of cmh's package: defines the in-tree ALIAS
#   cmh::<name> (what add_subdirectory/FetchContent users write) and, when CMH_INSTALL
#   is on, installs the target into the export set "cmhTargets" under the same name,
#   so find_package(cmh) users write cmh::<name> too. Libraries, executables (bin/) and
#   OBJECT libraries (lib/cmh/, linked into the consumer's executable) all work:
#     cmh_export(cmh_compare NAME compare)       # a library: cmh::compare
#     cmh_export(cmh-compare NAME compare_tool)  # an executable, installed to bin/
#     cmh_export(cmh_gbench NAME gbench)         # cmh::gbench
#   Rules for an exported target: link only other exported targets (cmh::cmh, not the
#   unexported cmh_harness/cmh_profilers, whose objects are already inside libcmh) and
#   imported targets that cmake/cmhConfig.cmake.in finds again (Threads, fmt); a private
#   header-only dependency of a static library goes in $<BUILD_INTERFACE:...> so that
#   consumers are not asked for it. Public headers go in <part>/include/cmh/ and are
#   installed by cmh_install_headers(<part>/include).
#
# cmh_install_package() (called once, at the end of the top-level CMakeLists.txt) writes
# cmhConfig.cmake, cmhConfigVersion.cmake, cmhTargets.cmake, cmh.pc, cmh-main.pc,
# cmh-alloc.pc, cmh-gbench.pc, cmh-gbench-main.pc and sets up CPack for `cpack -G DEB` (make deb).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CMH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cmh)

function(cmh_export target)
  cmake_parse_arguments(ARG "" "NAME" "" ${ARGN})
  if(NOT ARG_NAME)
    message(FATAL_ERROR "cmh_export(${target}): NAME is required")
  endif()
  if(NOT TARGET cmh::${ARG_NAME})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      add_executable(cmh::${ARG_NAME} ALIAS ${target})
    else()
      add_library(cmh::${ARG_NAME} ALIAS ${target})
    endif()
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${ARG_NAME})
  if(CMH_INSTALL)
    install(TARGETS ${target} EXPORT cmhTargets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
      OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmh
      INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endfunction()

# Installs a part's public headers (<dir>/cmh/...) into include/cmh/.
function(cmh_install_headers dir)
  if(CMH_INSTALL)
    install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
  endif()
endfunction()

function(cmh_install_package)
  if(NOT CMH_INSTALL)
    return()
  endif()
  install(EXPORT cmhTargets NAMESPACE cmh:: DESTINATION ${CMH_INSTALL_CMAKEDIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cmhConfig.cmake.in
    ${PROJECT_BINARY_DIR}/package/cmhConfig.cmake INSTALL_DESTINATION ${CMH_INSTALL_CMAKEDIR})
  # 0.x: a minor version may break the API, so only the same major.minor is compatible.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/cmhConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/package/cmhConfig.cmake ${PROJECT_BINARY_DIR}/package/cmhConfigVersion.cmake
    ${PROJECT_SOURCE_DIR}/cmake/CmhBenchmark.cmake DESTINATION ${CMH_INSTALL_CMAKEDIR})

  # The .pc files find their prefix from where they are (${pcfiledir}): the same files
  # work in a scratch prefix and in /usr (the .deb).
  set(pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  file(RELATIVE_PATH CMH_PC_PREFIX /${pcdir} /)
  string(REGEX REPLACE "/$" "" CMH_PC_PREFIX "${CMH_PC_PREFIX}")
  foreach(pc cmh cmh-main cmh-alloc cmh-gbench cmh-gbench-main)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/package/${pc}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/package/${pc}.pc DESTINATION ${pcdir})
  endforeach()

  # cpack -G DEB (make deb): build/cmh_<version>_amd64.deb, installing into /usr.
  set(CPACK_PACKAGE_NAME cmh)
  set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
  set(CPACK_PACKAGE_CONTACT "cmh developers <cmh@localhost>")
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION devel)
  set(CPACK_STRIP_FILES ON)  # executables and shared libraries only; archives keep their symbols
  # Run time: what libcmh.so and libcmhalloc.so load (checked with objdump -p / -T).
  # Build time: libcmh.a links -lfmt, -lnuma, -lpcre2-8, -ldw -lelf and -lcapstone (the .so symlinks are in the -dev
  # packages), and cmhConfig.cmake calls find_dependency(fmt) (libfmt-dev's package).
  # The public headers include only the standard library.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1, libfmt9, libnuma1, libpcre2-8-0, libdw1, libelf1, libcapstone4, libfmt-dev, libnuma-dev, libpcre2-dev, libdw-dev, libelf-dev, libcapstone-dev")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.25), pkg-config, g++ (>= 4:12)")
  include(CPack)
endfunction()

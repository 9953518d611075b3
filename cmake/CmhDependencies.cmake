# Every dependency is a Debian package (scripts/bootstrap installs them) found here.
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(Boost 1.74 REQUIRED)  # header-only Boost.Math: Student t quantiles
find_package(PkgConfig REQUIRED)
pkg_check_modules(NUMA REQUIRED IMPORTED_TARGET numa)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)  # benchmark filters (host/planner_selection.cpp)
# -prof perfasm / flame: symbols, source lines, inline chains and stack unwinding (elfutils
# libdw, with libelf) and disassembly (Capstone).
pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw libelf)
pkg_check_modules(CAPSTONE REQUIRED IMPORTED_TARGET capstone)
if(CMH_BUILD_TESTS)
  find_package(doctest REQUIRED)
  # /usr/bin/python3 is Debian's, the one python3-scipy (compare.py) is installed for.
  find_program(CMH_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH REQUIRED)
endif()
if(CMH_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
# Optional: valgrind/callgrind.h (Debian: valgrind), the client requests -prof icount
# toggles Callgrind's collection with. Header-only macros, nothing to link; without it
# the profiler says it is not supported here. cmh_callgrind carries the define.
find_path(CMH_CALLGRIND_INCLUDE_DIR valgrind/callgrind.h)
add_library(cmh_callgrind INTERFACE)
if(CMH_CALLGRIND_INCLUDE_DIR)
  target_include_directories(cmh_callgrind INTERFACE ${CMH_CALLGRIND_INCLUDE_DIR})
  target_compile_definitions(cmh_callgrind INTERFACE CMH_HAVE_CALLGRIND_H=1)
else()
  message(STATUS "valgrind/callgrind.h not found: -prof icount will report it is not supported "
                 "(Debian: apt-get install valgrind)")
endif()

# bench/gbench_compat: the programs of tests/gbench_compat/ side by side (bench/gbench_compat.py),
# each built twice in this Release tree, both on glibc's malloc:
#   cmh-bench-gbc-<prog>-google  against Debian's Google Benchmark, plus extra_thread.cpp
#                                (CMH_BENCH_EXTRA_THREAD=1: a multi-threaded process, as a cmh fork is)
#   cmh-bench-gbc-<prog>-cmh     against cmh's layer without the bundled allocator
#                                (cmh::gbench_no_allocator, which is cmh::gbench minus cmh::alloc)
find_package(benchmark REQUIRED)
set(_cmh_gbc_sources ${PROJECT_SOURCE_DIR}/tests/gbench_compat)
foreach(prog registration fixtures allocation)
  add_executable(cmh-bench-gbc-${prog}-google ${_cmh_gbc_sources}/${prog}.cpp
                 ${CMAKE_CURRENT_SOURCE_DIR}/gbench_compat/extra_thread.cpp)
  add_executable(cmh-bench-gbc-${prog}-cmh ${_cmh_gbc_sources}/${prog}.cpp)
  if(prog STREQUAL "allocation")  # no main() of its own: the libraries' BENCHMARK_MAIN
    target_link_libraries(cmh-bench-gbc-${prog}-google PRIVATE benchmark::benchmark_main)
    target_sources(cmh-bench-gbc-${prog}-cmh PRIVATE ${PROJECT_SOURCE_DIR}/gbench/src/main.cpp)
  else()
    target_link_libraries(cmh-bench-gbc-${prog}-google PRIVATE benchmark::benchmark)
  endif()
  target_link_libraries(cmh-bench-gbc-${prog}-google PRIVATE Threads::Threads)
  target_link_libraries(cmh-bench-gbc-${prog}-cmh PRIVATE cmh::gbench_no_allocator)
endforeach()

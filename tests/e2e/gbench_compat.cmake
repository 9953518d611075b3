# Google Benchmark compatibility (issue 14): the programs of tests/gbench_compat/,
# written in the styles real Google Benchmark suites use, are each built twice,
# against Debian's Google Benchmark and against cmh::gbench; the tests compare
# the two builds and run the cmh build under cmh.
find_package(benchmark REQUIRED)

set(_cmh_gbc_dir ${PROJECT_SOURCE_DIR}/tests/gbench_compat)
set(_cmh_gbc_args "")
foreach(prog registration fixtures allocation reporting paused)
  # allocation.cpp has no main(): it links the libraries' (benchmark_main's counterpart).
  if(prog STREQUAL "allocation")
    set(_cmh_lib cmh::gbench_main)
    set(_google_lib benchmark::benchmark_main)
  else()
    set(_cmh_lib cmh::gbench)
    set(_google_lib benchmark::benchmark)
  endif()
  add_executable(gbc-${prog}-cmh ${_cmh_gbc_dir}/${prog}.cpp)
  target_link_libraries(gbc-${prog}-cmh PRIVATE ${_cmh_lib})
  add_executable(gbc-${prog}-google ${_cmh_gbc_dir}/${prog}.cpp)
  target_link_libraries(gbc-${prog}-google PRIVATE ${_google_lib})
  list(APPEND _cmh_gbc_args $<TARGET_FILE:gbc-${prog}-cmh> $<TARGET_FILE:gbc-${prog}-google>)
endforeach()

cmh_add_e2e_test(gbench_compat_list gbench_compat_list.py ARGS ${_cmh_gbc_args} TIMEOUT 120)
cmh_add_e2e_test(gbench_compat_run gbench_compat_run.py ARGS ${_cmh_gbc_args} TIMEOUT 600)
cmh_add_e2e_test(gbench_compat_alloc gbench_compat_alloc.py ARGS ${_cmh_gbc_args} TIMEOUT 300)
cmh_add_e2e_test(gbench_compat_flags gbench_compat_flags.py ARGS ${_cmh_gbc_args} TIMEOUT 300)
cmh_add_e2e_test(gbench_compat_outputs gbench_compat_outputs.py ARGS ${_cmh_gbc_args} TIMEOUT 300)
cmh_add_e2e_test(gbench_compat_reporting gbench_compat_reporting.py ARGS ${_cmh_gbc_args} TIMEOUT 300)

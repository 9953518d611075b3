# End-to-end tests of the result files (-rf / -rff): Google Benchmark's compare.py
# reading two gbench files, every format written by a real run and read back, the
# start-up errors for bad paths, and a host killed with SIGKILL mid-run leaving
# valid files. cmh-formats-bench is a purpose-built benchmark executable;
# cmh-formats-driver writes fixed synthetic results through the same writers.
cmh_add_benchmark(cmh-formats-bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/formats_bench.cpp)

add_executable(cmh-formats-driver ${CMAKE_CURRENT_SOURCE_DIR}/e2e/formats_driver.cpp)
cmh_apply_warnings(cmh-formats-driver)
target_link_libraries(cmh-formats-driver PRIVATE cmh_harness_internals)
target_include_directories(cmh-formats-driver PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)

set(_cmh_formats_args --bench $<TARGET_FILE:cmh-formats-bench> --driver $<TARGET_FILE:cmh-formats-driver>)
cmh_add_e2e_test(formats_compare formats_compare.py ARGS ${_cmh_formats_args} TIMEOUT 300)
cmh_add_e2e_test(formats_files formats_files.py ARGS ${_cmh_formats_args} TIMEOUT 300)

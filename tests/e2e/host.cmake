# End-to-end tests of the host's hardening (issue 16): what a hostile user or
# benchmark does to the host itself (its descriptors, signals, patterns, numbers,
# output targets, escaped processes). They run e2e/faults/host_faults.cpp, and the
# same benchmarks without the bundled allocator.
cmh_benchmark_objects(cmh_host_faults_objects ${CMAKE_CURRENT_SOURCE_DIR}/e2e/faults/host_faults.cpp)
cmh_add_benchmark(cmh-host-faults SOURCES $<TARGET_OBJECTS:cmh_host_faults_objects>)
cmh_add_benchmark(cmh-host-faults-noalloc NO_ALLOCATOR SOURCES $<TARGET_OBJECTS:cmh_host_faults_objects>)

set(_cmh_host_exe $<TARGET_FILE:cmh-host-faults>)
cmh_add_e2e_test(host_io host_io.py ARGS ${_cmh_host_exe} TIMEOUT 180)
cmh_add_e2e_test(host_cli host_cli.py ARGS ${_cmh_host_exe} $<TARGET_FILE:cmh-host-faults-noalloc> TIMEOUT 300)
cmh_add_e2e_test(host_signals host_signals.py ARGS ${_cmh_host_exe} $<TARGET_FILE:cmh-compare> TIMEOUT 240)
cmh_add_e2e_test(host_orphans host_orphans.py ARGS ${_cmh_host_exe} TIMEOUT 120)
# The crasher matrix with the host instrumented too (ASan+UBSan, never the allocator).
if(CMH_SANITIZER_TESTS)
  cmh_add_benchmark(cmh-fork-faults-asan SANITIZE SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/faults/fork_faults.cpp)
  cmh_add_e2e_test(host_sanitized host_sanitized.py ARGS $<TARGET_FILE:cmh-fork-faults-asan> TIMEOUT 300)
endif()
cmh_add_e2e_test(host_diagnoses host_diagnoses.py ARGS ${_cmh_host_exe} TIMEOUT 120)
cmh_add_e2e_test(host_output host_output.py ARGS ${_cmh_host_exe} TIMEOUT 120)

# End-to-end tests of the sampling profilers (-prof perfasm, -prof flame) on cmh-sampled,
# whose hot code is known (e2e/sampled/sampled_benchmarks.cpp), and cmh-sampled-before, the
# same benchmarks without Sampled.extra's extra call (the "before" run of cmh-compare's
# differential). They skip where this machine does not let a process sample itself.
set(_cmh_sampled_source ${CMAKE_CURRENT_SOURCE_DIR}/e2e/sampled/sampled_benchmarks.cpp)
cmh_add_benchmark(cmh-sampled SOURCES ${_cmh_sampled_source})
cmh_add_e2e_test(sampled_perfasm sampled_perfasm.py
                 ARGS --sampled $<TARGET_FILE:cmh-sampled> --deny-perf $<TARGET_FILE:cmh-deny-perf-events>
                 TIMEOUT 300)
cmh_add_e2e_test(sampled_flame sampled_flame.py ARGS --sampled $<TARGET_FILE:cmh-sampled> TIMEOUT 300)
cmh_add_benchmark(cmh-sampled-before SOURCES ${_cmh_sampled_source})
target_compile_definitions(cmh-sampled-before PRIVATE CMH_SAMPLED_NO_EXTRA)
cmh_add_e2e_test(sampled_compare sampled_compare.py
                 ARGS --sampled $<TARGET_FILE:cmh-sampled> --before $<TARGET_FILE:cmh-sampled-before>
                      --compare $<TARGET_FILE:cmh-compare>
                 TIMEOUT 300)
cmh_add_e2e_test(sampled_report sampled_report.py ARGS --sampled $<TARGET_FILE:cmh-sampled> TIMEOUT 300)
set_tests_properties(e2e:sampled_perfasm e2e:sampled_flame e2e:sampled_compare e2e:sampled_report
                     PROPERTIES SKIP_RETURN_CODE 77)
# cmh-compare's exact numbers and flame differential, in its unit tests (compare.cmake defines them).
target_sources(cmh-compare-unit-tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/compare/flame_diff_test.cpp)

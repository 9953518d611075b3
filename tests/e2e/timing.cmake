# End-to-end tests of the numbers cmh reports on a busy machine: cpu_time in the
# gbench export judged by Google Benchmark's compare.py (A/A and a real CPU
# regression), and the disturbance warning under a CPU hog pinned beside the benchmark.
cmh_add_benchmark(cmh-timing-bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/timing_bench.cpp)
cmh_add_e2e_test(timing_cpu_compare timing_cpu_compare.py ARGS --bench $<TARGET_FILE:cmh-timing-bench> TIMEOUT 300)
# Skipped (77) where identical repetitions' cpu_time does not reproduce within the 20 % it detects.
set_tests_properties(e2e:timing_cpu_compare PROPERTIES SKIP_RETURN_CODE 77)
cmh_add_e2e_test(timing_disturbance timing_disturbance.py ARGS --bench $<TARGET_FILE:cmh-timing-bench> TIMEOUT 200)
cmh_add_e2e_test(timing_subwin timing_subwin.py ARGS --bench $<TARGET_FILE:cmh-timing-bench> TIMEOUT 200)
cmh_add_e2e_test(timing_presets timing_presets.py ARGS --bench $<TARGET_FILE:cmh-timing-bench> TIMEOUT 200)
# The robust estimate (issue 31): cmh.robustEstimate, the Robust line, -prec 2%:robust, cmh-compare --metric robust.
cmh_add_e2e_test(timing_robust timing_robust.py ARGS --bench $<TARGET_FILE:cmh-timing-bench> --compare $<TARGET_FILE:cmh-compare> TIMEOUT 200)

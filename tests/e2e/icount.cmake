# -prof icount (profilers/src/icount_*): counts per op under Callgrind, and cmh-compare
# gating them. cmh-icount-bench has known counts and needs valgrind/callgrind.h (its
# valgrind.h) at build time; the two count-based twins of compare_runs and
# timing_cpu_compare reuse those tests' executables and never skip for load. Each test
# skips (77) only where the valgrind program is missing.
if(CMH_CALLGRIND_INCLUDE_DIR)
  cmh_add_benchmark(cmh-icount-bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/icount_bench.cpp)
  cmh_add_e2e_test(icount_counts icount_counts.py
                   ARGS --bench $<TARGET_FILE:cmh-icount-bench> --compare $<TARGET_FILE:cmh-compare> TIMEOUT 400)
  cmh_add_e2e_test(compare_runs_icount compare_runs_icount.py ARGS ${_cmh_compare_args} TIMEOUT 400)
  cmh_add_e2e_test(timing_cpu_compare_icount timing_cpu_compare_icount.py
                   ARGS --bench $<TARGET_FILE:cmh-timing-bench> --compare $<TARGET_FILE:cmh-compare> TIMEOUT 400)
  set_tests_properties(e2e:icount_counts e2e:compare_runs_icount e2e:timing_cpu_compare_icount
                       PROPERTIES SKIP_RETURN_CODE 77)
endif()

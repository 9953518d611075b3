# cmh-compare (tools/compare/): unit tests of its statistics and readers against values
# computed with SciPy, and end-to-end tests on real runs of cmh-compare-bench, on
# Java JMH fixtures in both metric spellings, and on bad files.
add_executable(cmh-compare-unit-tests ${CMAKE_CURRENT_SOURCE_DIR}/compare/main.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/compare/significance_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/compare/readers_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/compare/environment_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/compare/icount_gate_test.cpp)
cmh_apply_warnings(cmh-compare-unit-tests)
target_link_libraries(cmh-compare-unit-tests PRIVATE cmh_compare_internals doctest::doctest)
doctest_discover_tests(cmh-compare-unit-tests TEST_PREFIX "compare-unit: " ADD_LABELS 0)

cmh_add_benchmark(cmh-compare-bench SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/compare_bench.cpp)

set(_cmh_compare_args --compare $<TARGET_FILE:cmh-compare> --bench $<TARGET_FILE:cmh-compare-bench>
    --fixtures ${CMAKE_CURRENT_SOURCE_DIR}/compare/fixtures)
cmh_add_e2e_test(compare_runs compare_runs.py ARGS ${_cmh_compare_args} TIMEOUT 300)
# Skipped (77) where identical forks' CPU time does not reproduce within the 20 % it detects.
set_tests_properties(e2e:compare_runs PROPERTIES SKIP_RETURN_CODE 77)
cmh_add_e2e_test(compare_files compare_files.py ARGS ${_cmh_compare_args} TIMEOUT 120)
# The HTML report in Debian's headless chromium; skipped (77) only when chromium is absent.
cmh_add_e2e_test(compare_html compare_html.py ARGS ${_cmh_compare_args} TIMEOUT 300)
set_tests_properties(e2e:compare_html PROPERTIES SKIP_RETURN_CODE 77)

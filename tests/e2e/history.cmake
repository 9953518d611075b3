# cmh-history (tools/history/): unit tests of its change points and schema, and
# end-to-end tests on synthetic series built from real runs of cmh-compare-bench
# (compare.cmake), on SQLite and on a PostgreSQL server the test starts itself
# (pg_virtualenv -t); the trend page in headless chromium.
add_executable(cmh-history-unit-tests ${CMAKE_CURRENT_SOURCE_DIR}/history/main.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/history/change_points_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/history/schema_test.cpp)
cmh_apply_warnings(cmh-history-unit-tests)
target_link_libraries(cmh-history-unit-tests PRIVATE cmh_history_core doctest::doctest)
doctest_discover_tests(cmh-history-unit-tests TEST_PREFIX "history-unit: " ADD_LABELS 0)

set(_cmh_history_args --history $<TARGET_FILE:cmh-history> --compare $<TARGET_FILE:cmh-compare>
    --bench $<TARGET_FILE:cmh-compare-bench> --fixtures ${CMAKE_CURRENT_SOURCE_DIR}/compare/fixtures)
cmh_add_e2e_test(history_sqlite history_store.py ARGS ${_cmh_history_args} TIMEOUT 300)
cmh_add_e2e_test(history_postgres history_store.py ARGS ${_cmh_history_args} --postgres TIMEOUT 300)
# Skipped (77) only where PostgreSQL's server is not installed.
set_tests_properties(e2e:history_postgres PROPERTIES SKIP_RETURN_CODE 77)
cmh_add_e2e_test(history_report history_report.py ARGS ${_cmh_history_args} TIMEOUT 300)
# The trend page in Debian's headless chromium; skipped (77) only when chromium is absent.
set_tests_properties(e2e:history_report PROPERTIES SKIP_RETURN_CODE 77)
cmh_add_e2e_test(history_shards history_shards.py ARGS ${_cmh_history_args} TIMEOUT 300)

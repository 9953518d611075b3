# End-to-end tests of the console report: real runs of cmh-report-fixture, their
# header, iteration lines, Result blocks and summary table, and the statistics
# recomputed (with scipy) from the iteration lines the report printed.
cmh_add_benchmark(cmh-report-fixture SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/report_fixture.cpp)
cmh_add_e2e_test(report_console report_console.py ARGS --fixture $<TARGET_FILE:cmh-report-fixture> TIMEOUT 300)

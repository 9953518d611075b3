# End-to-end tests of the command line: every bad input exits 1 with its message
# and runs nothing (against build/samples/cmh-samples and cmh-cli-fixture), the
# -l/-lp listings, -h, and runs that show flags and -p values reaching the report.
cmh_add_benchmark(cmh-cli-fixture SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli_fixture.cpp)

set(_cmh_cli_args --fixture $<TARGET_FILE:cmh-cli-fixture>)
cmh_add_e2e_test(cli_errors cli_errors.py ARGS ${_cmh_cli_args} TIMEOUT 300)
cmh_add_e2e_test(cli_list cli_list.py ARGS ${_cmh_cli_args} TIMEOUT 120)
cmh_add_e2e_test(cli_help cli_help.py TIMEOUT 60)
cmh_add_e2e_test(cli_run cli_run.py ARGS ${_cmh_cli_args} TIMEOUT 300)

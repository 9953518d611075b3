# End-to-end test of the samples (samples/*.cpp, built into build/samples/cmh-samples):
# every sample states its lesson, registers what its source declares, and runs
# briefly in a fork; the allocation lessons are checked exactly (no timings).
if(CMH_BUILD_SAMPLES)
  cmh_add_e2e_test(samples samples_run.py TIMEOUT 400)
endif()
# The samples on the checked allocator, pre-touched (issue 24's regression test).
if(CMH_BUILD_SAMPLES AND TARGET cmh-samples-checked)
  cmh_add_e2e_test(samples_checked samples_checked.py TIMEOUT 900)
endif()

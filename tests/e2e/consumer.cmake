# Consumer tests: cmh from a user's own project, out of tree (tests/consumer/, driven by
# consumer_build.py). consumer_install installs this build into a scratch prefix once
# (a fixture); find_package and pkg_config build against that prefix; add_subdirectory and
# fetchcontent compile cmh's sources again inside the user's build (unoptimised and unity, through
# the parent's compiler launcher if it has one: with ccache the second of the two, and
# every later run, mostly hits the cache; without, each costs a build of cmh at -O0)
# and take a lock so that the two never compile at the same time.
set(_cmh_consumer_prefix ${CMAKE_CURRENT_BINARY_DIR}/consumer-prefix)
set(_cmh_consumer_args --cmake ${CMAKE_COMMAND} --generator ${CMAKE_GENERATOR}
    --make-program ${CMAKE_MAKE_PROGRAM} --cc ${CMAKE_C_COMPILER} --cxx ${CMAKE_CXX_COMPILER}
    --pkg-config ${PKG_CONFIG_EXECUTABLE} --prefix ${_cmh_consumer_prefix})
if(CMAKE_CXX_COMPILER_LAUNCHER)
  list(APPEND _cmh_consumer_args --launcher ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
cmh_add_e2e_test(consumer_install consumer_build.py ARGS --step install ${_cmh_consumer_args})
set_tests_properties(e2e:consumer_install PROPERTIES FIXTURES_SETUP cmh_consumer_prefix)
foreach(step find_package pkg_config)
  cmh_add_e2e_test(consumer_${step} consumer_build.py ARGS --step ${step} ${_cmh_consumer_args} TIMEOUT 900)
  set_tests_properties(e2e:consumer_${step} PROPERTIES FIXTURES_REQUIRED cmh_consumer_prefix)
endforeach()
foreach(step add_subdirectory fetchcontent)
  cmh_add_e2e_test(consumer_${step} consumer_build.py ARGS --step ${step} ${_cmh_consumer_args} TIMEOUT 3600)
  set_tests_properties(e2e:consumer_${step} PROPERTIES RESOURCE_LOCK cmh_consumer_compile)
endforeach()

# cmh_add_benchmark(<name> SOURCES ... [NO_ALLOCATOR] [SANITIZE])
#
# Builds a benchmark executable the way users should: linked with cmh::main
# (the command line, host and worker) and, unless NO_ALLOCATOR, with the bundled
# allocator cmh::alloc, which replaces malloc/new for the whole process so that
# -prof alloc can count every byte. SANITIZE (cmh's own tests only) links the
# ASan+UBSan twins instead and never the allocator (ASan cannot sit on top of a
# replaced malloc).
#
# The same file serves cmh's own tree and find_package(cmh) users (it is installed
# next to cmhConfig.cmake), so it names only the cmh:: targets. It adds cmh's
# warnings to cmh's own executables only, never to a user's.
function(cmh_add_benchmark name)
  cmake_parse_arguments(ARG "NO_ALLOCATOR;SANITIZE" "" "SOURCES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cmh_add_benchmark(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  get_property(own_dir GLOBAL PROPERTY CMH_OWN_SOURCE_DIR)
  set(own FALSE)
  if(own_dir)
    cmake_path(IS_PREFIX own_dir "${CMAKE_CURRENT_SOURCE_DIR}" own)
  endif()
  if(own AND COMMAND cmh_apply_warnings)
    cmh_apply_warnings(${name})
  endif()
  if(ARG_SANITIZE)
    if(NOT TARGET cmh_main_asan)
      message(FATAL_ERROR "cmh_add_benchmark(${name} SANITIZE): the sanitizer twins exist only in "
                          "cmh's own tree with CMH_SANITIZER_TESTS=ON")
    endif()
    target_link_libraries(${name} PRIVATE cmh_main_asan)
  else()
    target_link_libraries(${name} PRIVATE cmh::main)
    if(NOT ARG_NO_ALLOCATOR AND TARGET cmh::alloc)
      target_link_libraries(${name} PRIVATE cmh::alloc)
    endif()
  endif()
endfunction()

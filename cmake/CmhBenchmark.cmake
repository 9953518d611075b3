# cmh_add_benchmark(<name> SOURCES ... [NO_ALLOCATOR] [SANITIZE])
#
# Builds a benchmark executable the way users should: linked with cmh::main
# (the command line, host and worker) and, unless NO_ALLOCATOR, with the bundled
# allocator cmh::alloc, which replaces malloc/new for the whole process so that
# -prof alloc can count every byte. SANITIZE links the ASan+UBSan twins instead
# and never the allocator (ASan cannot sit on top of a replaced malloc).
function(cmh_add_benchmark name)
  cmake_parse_arguments(ARG "NO_ALLOCATOR;SANITIZE" "" "SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  cmh_apply_warnings(${name})
  if(ARG_SANITIZE)
    target_link_libraries(${name} PRIVATE cmh_main_asan)
  else()
    target_link_libraries(${name} PRIVATE cmh::main)
    if(NOT ARG_NO_ALLOCATOR AND TARGET cmh::alloc)
      target_link_libraries(${name} PRIVATE cmh::alloc)
    endif()
  endif()
endfunction()

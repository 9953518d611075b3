// SPDX-License-Identifier: MIT
// The registry entries of the built-in profilers, one factory function per file,
// collected by register_builtins() (builtins.cpp).
#pragma once

#include <cmh/profiler.hpp>

namespace cmh::profilers {

ProfilerInfo alloc_profiler_info();     // alloc_profiler.cpp
ProfilerInfo gc_profiler_info();        // alloc_profiler.cpp: the same under JMH's names
ProfilerInfo rusage_profiler_info();    // rusage_profiler.cpp
ProfilerInfo perf_profiler_info();      // perf_profiler.cpp: totals
ProfilerInfo perfnorm_profiler_info();  // perf_profiler.cpp: per op
ProfilerInfo numa_profiler_info();      // numa_profiler.cpp
ProfilerInfo icount_profiler_info();    // icount_profiler.cpp
ProfilerInfo perfasm_profiler_info();   // perfasm_profiler.cpp
ProfilerInfo flame_profiler_info();     // flame_profiler.cpp

}  // namespace cmh::profilers

// SPDX-License-Identifier: MIT
// What a benchmark file includes: the macros, states, parameters, aux counters,
// option values, Blackhole, Control and ThreadParams.
//
//   #include <cmh/cmh.hpp>
//   CMH_BENCHMARK(Sample, sqrt, cmh::Blackhole& bh) { bh.consume(std::sqrt(2.0)); }
//
// Kept light, because every benchmark file parses it: no results model, no profilers,
// no calendars. A benchmark may take `const cmh::BenchmarkParams&` and
// `const cmh::IterationParams&` (declared here); to read their fields include
// <cmh/params.hpp>. Code that extends cmh (profilers, the results model, the
// registry, a custom main) includes <cmh/extension.hpp>.
#pragma once

#include <cmh/aux_counters.hpp>
#include <cmh/benchmark.hpp>
#include <cmh/blackhole.hpp>
#include <cmh/control.hpp>
#include <cmh/option_values.hpp>
#include <cmh/param.hpp>
#include <cmh/state.hpp>
#include <cmh/thread_params.hpp>

// Durations and their literals (cmh::warmup{5, 1s} with std::chrono_literals), which
// benchmark files have always had from this header. libstdc++ keeps them in
// <bits/chrono.h>; the rest of C++20's <chrono> (calendars, time zones, formatting)
// would cost every benchmark file about 0.2 s of CPU to parse, for nothing it uses.
#if defined(__GLIBCXX__) && __has_include(<bits/chrono.h>)
#include <bits/chrono.h>
#else
#include <chrono>
#endif

namespace cmh {
struct BenchmarkParams;  // <cmh/params.hpp>
struct IterationParams;  // <cmh/params.hpp>
}  // namespace cmh

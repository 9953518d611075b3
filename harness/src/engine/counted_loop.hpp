// SPDX-License-Identifier: MIT
// Counted iterations, for -prof icount: instead of a timed window, every worker makes
// exactly N calls per iteration, and in measurement iterations Callgrind's event
// collection is switched on for the calling thread right around those calls (the
// client requests of valgrind/callgrind.h, which do nothing outside Valgrind). The
// collected calls follow the same number of uncollected ones, for a steady state.
//
// The calls go through the benchmark's own timed loop (LoopHooks::time_loop, the body
// inlined), entered N times with its stop flag already raised, so that each entry makes
// exactly one call: the count per call is then the body plus a fixed loop overhead,
// independent of timing. count_empty_loop() measures that overhead the same way with
// an empty body, for the profiler to subtract.
//
// The icount profiler turns it on in the fork it re-executes under Callgrind
// (set_counted_calls in cmh/detail/counted_calls.hpp, before the trial); the trial then
// neither ramps nor sleeps.
#pragma once

#include <cmh/detail/counted_calls.hpp>  // set_counted_calls, count_empty_loop: the profiler's switches
#include <cmh/detail/loop_interface.hpp>

#include <cstdint>

namespace cmh::detail {

/// The counted replacement of the time modes' timed loop (loop_driver.cpp): a.counted_calls
/// calls, collected in measurement iterations. Adds call times to `timed` with invocation
/// fixtures, as time_loop does. Returns the calls made.
std::uint64_t counted_loop(LoopArgs& a, const LoopHooks& hooks, const void* ptrs, std::int64_t& timed);

}  // namespace cmh::detail

// SPDX-License-Identifier: MIT
// Counted iterations, for -prof icount (the engine's counted loop, harness/src/engine/
// counted_loop.hpp, explains them): the switches the icount profiler turns in the fork it
// runs under Callgrind. Not for benchmark code: declared here so that the profilers need
// no private harness header.
#pragma once

#include <cstdint>

namespace cmh::engine {

/// Calls per worker per iteration for the trials that follow; 0 (the default): timed.
void set_counted_calls(std::uint64_t calls) noexcept;
std::uint64_t counted_calls() noexcept;

/// True when this build has valgrind/callgrind.h, so that collection can be toggled.
bool callgrind_client_requests() noexcept;

/// Runs the counted loop for an empty body on the calling thread: `calls` calls, and
/// with `collect` as many again with Callgrind's collection on around them.
void count_empty_loop(std::uint64_t calls, bool collect);

}  // namespace cmh::engine

// SPDX-License-Identifier: MIT
// The fork worker as a process, as both sides know it: how the host tells this
// executable to be a worker, on which descriptor the results channel arrives, and
// the exit status that says the channel failed under the worker. The messages on
// that channel are in messages.hpp.
#pragma once

#include <string_view>

namespace cmh::forking {

/// argv[1] of a fork worker: this prefix, then the channel's descriptor number.
inline constexpr std::string_view kWorkerOption = "--cmh-fork-worker=";

/// The descriptor number of the results channel in the fork.
inline constexpr int kWorkerChannelFd = 3;

/// The worker's exit status when its results channel fails under it (the benchmark
/// closed or replaced fd 3): rare enough that the host can tell it from exit(3).
inline constexpr int kChannelLostExitCode = 121;

}  // namespace cmh::forking

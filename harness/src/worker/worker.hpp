// SPDX-License-Identifier: MIT
// Forked execution, worker side: what this executable does when the host started it
// as a fork (host side: fork/fork_runner.hpp; the protocol between them: wire/).
#pragma once

#include <optional>

namespace cmh::forking {

/// If argv carries the hidden worker option (wire/worker_process.hpp), runs this
/// process as a fork worker and returns its exit status; otherwise returns nullopt
/// and main() goes on as the host. Called first thing in main().
std::optional<int> maybe_run_worker(int argc, char** argv);

}  // namespace cmh::forking

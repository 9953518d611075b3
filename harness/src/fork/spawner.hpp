// SPDX-License-Identifier: MIT
// Starting a fork: fork + exec with the results channel on a fixed descriptor,
// stdout/stderr on pipes, stdin on /dev/null, its own process group, and the
// CPU affinity and memory policy applied between fork and exec (both survive
// exec, which is how numactl works). Everything the child needs is prepared
// before fork(): between fork and exec it only makes raw system calls.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <cmh/detail/extra_fork.hpp>  // find_in_path

#include "fork/fork_args.hpp"
#include "wire/worker_process.hpp"

namespace cmh::forking {

/// The fork could not be started; what() is one line.
struct SpawnError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SpawnSpec {
  std::string path;               ///< what execve runs
  std::vector<std::string> argv;  ///< argv[0] included
  std::vector<std::string> env;   ///< the whole environment, "NAME=value"
  std::vector<int> cpus;          ///< empty: keep the inherited affinity
  MemoryPolicy memory_policy = MemoryPolicy::inherit;
  std::vector<int> memory_nodes;
};

/// A running fork. The host ends are close-on-exec and non-blocking.
struct ChildProcess {
  pid_t pid = -1;      ///< also its process group id
  int pidfd = -1;      ///< readable when the child exits; -1 if the kernel lacks pidfd_open
  int channel = -1;    ///< socket: the plan goes out, frames come in
  int out = -1;        ///< the fork's stdout
  int err = -1;        ///< the fork's stderr
};

/// Starts the child. Throws SpawnError (nothing is left running) if fork, the
/// bindings or exec fail.
ChildProcess spawn_child(const SpawnSpec& spec);

/// Closes every host-side descriptor that is still open (sets them to -1).
void close_child_fds(ChildProcess& child);

/// The environment of this process with `overrides` ("NAME=value") replacing or adding.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& overrides);

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// The defaults of add's --commit and --branch, from the git repository the command
// runs in.
#pragma once

#include <optional>
#include <string>

namespace cmh::history {

/// `git rev-parse HEAD` in the current directory; nullopt outside a repository (or without git).
std::optional<std::string> git_head_commit();
/// The current branch; nullopt outside a repository or on a detached HEAD.
std::optional<std::string> git_current_branch();

}  // namespace cmh::history

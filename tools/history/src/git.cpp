// SPDX-License-Identifier: MIT
#include "git.hpp"

#include <cstdio>
#include <sys/wait.h>

namespace cmh::history {
namespace {

/// Runs a fixed git command (no user text reaches the shell) and returns its first line.
std::optional<std::string> git_line(const char* command) {
  FILE* pipe = popen(command, "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  const int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  if (const std::size_t nl = out.find('\n'); nl != std::string::npos) out.erase(nl);
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace

std::optional<std::string> git_head_commit() { return git_line("git rev-parse --verify -q HEAD 2>/dev/null"); }

std::optional<std::string> git_current_branch() {
  auto branch = git_line("git rev-parse --abbrev-ref HEAD 2>/dev/null");
  if (branch && *branch == "HEAD") return std::nullopt;  // detached
  return branch;
}

}  // namespace cmh::history

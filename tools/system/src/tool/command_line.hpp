// SPDX-License-Identifier: MIT
// cmh-system's command line: [--root DIR] [--state FILE] [--dry-run] [--cpus LIST]
// show|tune|reset, options before or after the command.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmh::system {

/// A bad command line; what() is the one line printed before exiting 1.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Command { show, tune, reset, help };

struct Options {
  Command command = Command::help;
  std::filesystem::path root = "/";
  /// --state, or the default state file under the root.
  std::filesystem::path state_file;
  bool dry_run = false;
  /// --cpus: the CPUs tune keeps interrupts off (and show checks).
  std::vector<int> cpus;
};

/// Throws UsageError.
Options parse_command_line(int argc, const char* const* argv);

/// The -h text.
std::string usage_text();

}  // namespace cmh::system

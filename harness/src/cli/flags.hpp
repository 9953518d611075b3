// SPDX-License-Identifier: MIT
// The table of command-line flags: one row per JMH flag, holding its name, alias,
// value kind, help text and the function that stores its value. The parser
// (command_line.cpp) and the -h text (help.cpp) are both driven by this table, so
// a flag cannot be accepted without being documented, or documented without
// being accepted.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.hpp"

namespace cmh::cli {

/// What the parser accumulates before it finalises a CommandLine.
struct ParseState {
  CommandLine command_line;
  /// -forkArgs / -forkArgsPrepend / -forkArgsAppend values, split and concatenated in order.
  std::optional<std::vector<std::string>> fork_args;
  std::vector<std::string> fork_args_prepend, fork_args_append;
};

struct FlagSpec {
  std::string_view name;        ///< without the dash: "wi"
  std::string_view alias;       ///< another accepted name ("jvmArgs"), or empty
  std::string_view value_name;  ///< "int", "time", ...; empty for a flag without a value
  bool repeatable;              ///< may be given more than once (values accumulate)
  std::string_view description; ///< for -h, with the default where there is one
  /// Stores the value; throws CommandLineError with a message about the value only.
  void (*apply)(ParseState& state, std::string_view value);
};

/// Every flag, sorted by name (the order -h lists them in).
std::span<const FlagSpec> flag_table();

/// -quick: 1 fork, 2 x 100 ms warmup, 5 x 100 ms measurement, where the command line
/// set none of these itself.
void apply_quick_preset(OptionSet& o);

/// The header line of a quick run.
std::string_view quick_run_note();

}  // namespace cmh::cli

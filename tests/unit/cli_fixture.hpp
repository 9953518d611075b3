// SPDX-License-Identifier: MIT
// Helpers shared by the command-line unit tests: parse a command line as `./bench ARGS`,
// or return the one-line error it gives.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "cli/command_line.hpp"

namespace cli_fixture {

inline cmh::cli::CommandLine parse(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"./bench"};
  argv.insert(argv.end(), args.begin(), args.end());
  return cmh::cli::parse_command_line(static_cast<int>(argv.size()), argv.data());
}

inline std::string error_of(std::initializer_list<const char*> args) {
  try {
    parse(args);
  } catch (const cmh::cli::CommandLineError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace cli_fixture

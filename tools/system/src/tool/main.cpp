// SPDX-License-Identifier: MIT
// cmh-system: show, tune and reset the Linux settings that move benchmark results.
#include <exception>
#include <iostream>

#include "tool/command_line.hpp"
#include "tool/commands.hpp"

int main(int argc, char** argv) {
  using namespace cmh::system;
  try {
    const Options options = parse_command_line(argc, argv);
    switch (options.command) {
      case Command::help: std::cout << usage_text(); return 0;
      case Command::show: return run_show(options, std::cout);
      case Command::tune: return run_tune(options, std::cout, std::cerr);
      case Command::reset: return run_reset(options, std::cout, std::cerr);
    }
  } catch (const UsageError& e) {
    std::cerr << "cmh-system: " << e.what() << "\n";
    return 2;  // bad usage, as every tool under tools/ (tools/README.md)
  } catch (const std::exception& e) {
    std::cerr << "cmh-system: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

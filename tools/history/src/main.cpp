// SPDX-License-Identifier: MIT
// cmh-history: a store of benchmark results over commits, its change points, a trend
// page and exports. Exit 0 done, 1 when check finds a regression, 2 with one line on
// stderr for bad input (a bad file, option or store; nothing is written then).
#include "commands.hpp"

#include <cmh/results/model.hpp>

#include <iostream>

int main(int argc, char** argv) {
  using namespace cmh::history;
  try {
    const CommandLine cl = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
    if (cl.help) {
      std::cout << kUsage;
      return 0;
    }
    if (cl.command == "add") return run_add(cl, std::cout);
    if (cl.command == "changes") return run_changes(cl, std::cout);
    if (cl.command == "check") return run_check(cl, std::cout);
    if (cl.command == "series") return run_series(cl, std::cout);
    if (cl.command == "report") return run_report(cl, std::cout);
    return run_export(cl, std::cout);
  } catch (const HistoryError& e) {
    std::cerr << "cmh-history: " << e.what() << "\n";
  } catch (const cmh::results::InputError& e) {
    std::cerr << "cmh-history: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "cmh-history: internal error: " << e.what() << "\n";
  }
  return 2;
}

// SPDX-License-Identifier: MIT
// See command_line.hpp.
#include "tool/command_line.hpp"

#include <string_view>
#include <system_error>

#include <cmh/machine/cpu_list.hpp>
#include <cmh/machine/knobs.hpp>
#include <cmh/machine/sys_tree.hpp>

namespace cmh::system {

namespace {

/// The value of "--name VALUE" or "--name=VALUE".
std::string option_value(int argc, const char* const* argv, int& i, std::string_view arg, std::string_view name) {
  if (arg.size() > name.size() && arg[name.size()] == '=') return std::string(arg.substr(name.size() + 1));
  if (i + 1 >= argc) throw UsageError(std::string(name) + " needs a value");
  return argv[++i];
}

bool is_option(std::string_view arg, std::string_view name) {
  return arg == name || (arg.size() > name.size() && arg.starts_with(name) && arg[name.size()] == '=');
}

}  // namespace

Options parse_command_line(int argc, const char* const* argv) {
  Options o;
  bool have_command = false, have_state = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      o.command = Command::help;
      return o;
    }
    if (is_option(arg, "--root")) {
      const std::string value = option_value(argc, argv, i, arg, "--root");
      std::error_code ec;
      if (value.empty() || !std::filesystem::is_directory(value, ec))
        throw UsageError("--root " + value + ": not a directory");
      o.root = value;
    } else if (is_option(arg, "--state")) {
      const std::string value = option_value(argc, argv, i, arg, "--state");
      if (value.empty()) throw UsageError("--state needs a file name");
      o.state_file = value;
      have_state = true;
    } else if (is_option(arg, "--cpus")) {
      const std::string value = option_value(argc, argv, i, arg, "--cpus");
      const auto cpus = machine::parse_cpu_list(value);
      if (!cpus || cpus->empty()) throw UsageError("--cpus " + value + ": not a CPU list such as 2-3 or 1,3");
      o.cpus = *cpus;
    } else if (arg == "--dry-run" || arg == "-n") {
      o.dry_run = true;
    } else if (arg.starts_with("-")) {
      throw UsageError("unknown option " + std::string(arg) + " (see cmh-system --help)");
    } else if (have_command) {
      throw UsageError("one command only: got " + std::string(arg) + " after another");
    } else if (arg == "show" || arg == "tune" || arg == "reset") {
      o.command = arg == "show" ? Command::show : arg == "tune" ? Command::tune : Command::reset;
      have_command = true;
    } else {
      throw UsageError("unknown command " + std::string(arg) + " (show, tune or reset)");
    }
  }
  if (!have_command) throw UsageError("no command: give show, tune or reset (see cmh-system --help)");
  if (o.dry_run && o.command == Command::show) throw UsageError("--dry-run is for tune and reset; show changes nothing");
  if (!have_state) o.state_file = machine::SysTree(o.root).at(machine::kDefaultStateFile);
  return o;
}

std::string usage_text() {
  return R"(Usage: cmh-system [--root DIR] [--state FILE] [--dry-run] [--cpus LIST] show|tune|reset

Shows, sets and restores the Linux settings that move benchmark results.

Commands:
  show    Every knob with its current value, the value a benchmark wants and why
          it matters; what cannot be read says "unknown" and why. Changes nothing.
  tune    Sets what differs and can be set (as root), after saving every file it
          changes to the state file. A second tune keeps the first saved values.
          Never lowers perf_event_max_sample_rate. Leaves SMT on (use -pin cores).
  reset   Writes every saved file back byte for byte, says what it restored, and
          removes the state file. Without a state file it changes nothing.

Options:
  --root DIR    Treat DIR as / for every /sys and /proc path (tests, containers
                with the host's tree mounted elsewhere).
  --state FILE  The state file (default: /var/lib/cmh/system-state.json under the root).
  --dry-run     tune and reset: print the writes instead of doing them.
  --cpus LIST   The benchmark CPUs (e.g. 2-3): tune routes interrupts off them.
  -h, --help    This text.

Exit status: 0 done; 1 needs root, or a file could not be written or restored
(the state file is then kept); 2 a bad command line or a broken state file.
See docs/preparing-the-machine.md.
)";
}

}  // namespace cmh::system

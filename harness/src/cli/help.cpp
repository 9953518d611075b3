// SPDX-License-Identifier: MIT
// The -h text: JMH's usage layout (each option in a 30-column field, its
// description wrapped beside it, defaults in parentheses), generated from the
// flag table, followed by what JMH keeps elsewhere and cmh must say here: the
// host property, the fork-argument vocabulary and the exit statuses.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/flags.hpp"

namespace cmh::cli {

namespace {

constexpr std::size_t kOptionWidth = 30;  // JMH's OptionFormatter field
constexpr std::size_t kTextWidth = 50;    // wrapped description width beside it

std::vector<std::string> wrap(std::string_view text) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == ' ') ++pos;
    std::size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(pos, end - pos);
    if (!word.empty()) {
      if (!line.empty() && line.size() + 1 + word.size() > kTextWidth) {
        lines.push_back(std::move(line));
        line.clear();
      }
      if (!line.empty()) line += ' ';
      line += word;
    }
    pos = end;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

/// One entry: the option text padded to the field, the description wrapped beside it.
void entry(std::string& out, std::string_view option, std::string_view description) {
  std::string head = fmt::format("  {}", option);
  // An option wider than the field gets its description on the next line.
  if (head.size() >= kOptionWidth) {
    out += head;
    out += '\n';
    head.clear();
  }
  bool first = true;
  for (const auto& line : wrap(description)) {
    out += fmt::format("{:<{}}{}\n", first ? head : std::string(), kOptionWidth, line);
    first = false;
  }
  out += '\n';
}

std::string option_text(const FlagSpec& f) {
  if (f.value_name.empty()) return fmt::format("-{}", f.name);
  return fmt::format("-{} <{}>", f.name, f.value_name);
}

}  // namespace

std::string help_text() { return help_text("<benchmark-executable>"); }

std::string help_text(std::string_view program) {
  std::string out = fmt::format("Usage: {} [regexp*] [options]\n", program.empty() ? "<benchmark-executable>" : program);
  out +=
      " [opt] means optional argument.\n"
      " <opt> means required argument.\n"
      " \"+\" means comma-separated list of values.\n"
      " \"time\" arguments accept time suffixes, like \"100ms\".\n"
      "\n"
      "Command line options usually take precedence over the options set in code\n"
      "(command line > CMH_BENCHMARK_OPTIONS > CMH_OPTIONS of the group > defaults).\n"
      "A flag may be written -flag value, -flag=value or --flag value, and abbreviated\n"
      "to a unique prefix.\n\n";
  entry(out, "[arguments]",
        "Benchmarks to run (regexp+): ECMAScript regular expressions, each matched anywhere in the "
        "full name Group.name. (default: .*)");
  for (const auto& f : flag_table()) {
    std::string description(f.description);
    if (!f.alias.empty()) description += fmt::format(" Also spelled -{}.", f.alias);
    entry(out, option_text(f), description);
  }

  out += "Host properties:\n\n";
  entry(out, "-Dcmh.ignoreLock=true",
        "Run even when another cmh run holds the machine's run lock (a lock file in the temporary "
        "directory). Two runs at once disturb each other's numbers.");

  out += "Fork arguments (-forkArgs, -forkArgsPrepend, -forkArgsAppend, cmh::fork{n, {...}}):\n";
  out +=
      "  In effect: prepend + (-forkArgs, else the benchmark's, else the group's) + append;\n"
      "  prepend and append lists of every level add up. An unknown one is an error.\n\n";
  entry(out, "-Xmx<size>",
        "Heap limit of the bundled allocator; past it allocation fails. size: an integer with an "
        "optional k, m or g suffix (K, M, G too).");
  entry(out, "-Xms<size>", "Heap the allocator commits at start.");
  entry(out, "-XX:+AlwaysPreTouch",
        "Touch the committed heap at start, so page faults stay out of measurements "
        "(-XX:-AlwaysPreTouch: do not).");
  entry(out, "-XX:+UseNUMA", "NUMA-aware allocation (default: on where the binding allows it).");
  entry(out, "-XX:-UseNUMA", "No NUMA-aware allocation.");
  entry(out, "-XX:RegionSize=<size>", "Allocator region size, a power of two.");
  entry(out, "-XX:DecayTime=<ms>", "Milliseconds before free memory goes back to the OS.");
  entry(out, "-XX:-BackgroundPurge",
        "No purge thread: a thread's free pages go back only through its own allocations "
        "(-XX:+BackgroundPurge, the default: a thread returns idle threads' free pages).");
  entry(out, "-Xlog:numa",
        "Print the bytes allocated per NUMA node (total, local, remote) at the fork's exit and at "
        "every -gc collection.");
  entry(out, "-XX:Allocator=<name>",
        "The allocator the fork runs on: cmh (default, the bundled one), glibc, jemalloc, tcmalloc, "
        "mimalloc, or the path of an allocator .so (put first in LD_PRELOAD). -prof alloc still counts "
        "exactly; gc.* is left out and NUMA is off under another allocator. Not with -Xmx & co.");
  entry(out, "--cpunodebind=<nodes>", "Run the fork on the CPUs of these NUMA nodes.");
  entry(out, "--physcpubind=<cpus>", "Run the fork on these CPUs only.");
  entry(out, "--membind=<nodes>", "Allocate the fork's memory on these nodes only.");
  entry(out, "--interleave=<nodes>", "Interleave the fork's memory over these nodes.");
  entry(out, "--preferred=<node>", "Prefer memory on this node.");
  entry(out, "--localalloc",
        "Allocate on the node the thread runs on. These are numactl's options, applied between "
        "fork and exec; lists as numactl's (0-3,5). A node or CPU that does not exist is an error.");
  entry(out, "-D<NAME>=<value>", "An environment variable of the fork.");

  out += "Exit status:\n\n";
  entry(out, "0", "Every benchmark succeeded.");
  entry(out, "1", "Bad command line; nothing ran.");
  entry(out, "2", "Some benchmark failed (it is marked as failed in the summary).");
  entry(out, "128+N", "Interrupted by signal N (130: Ctrl-C, 143: SIGTERM); what completed is kept.");

  out +=
      "Profilers: -lprof lists them, -prof <name>:help shows a profiler's options.\n"
      "Result formats: -lrf lists them.\n";
  return out;
}

}  // namespace cmh::cli

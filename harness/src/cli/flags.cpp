// SPDX-License-Identifier: MIT
// The flag table (see flags.hpp): JMH's flags with cmh's defaults, each with the
// function that parses and stores its value.
#include "cli/flags.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cli/values.hpp"

namespace cmh::cli {

namespace {

OptionSet& overrides(ParseState& s) { return s.command_line.overrides; }

void append_split(std::vector<std::string>& target, std::string_view value) {
  auto args = split_fork_args(value);
  target.insert(target.end(), args.begin(), args.end());
}

std::string non_empty(std::string_view value, std::string_view what) {
  if (value.empty()) throw CommandLineError(fmt::format("needs {}, got an empty string", what));
  return std::string(value);
}

void apply_params(ParseState& s, std::string_view value) {
  const auto eq = value.find('=');
  if (eq == std::string_view::npos)
    throw CommandLineError(fmt::format("\"{}\" is not name=value1,value2,...", value));
  const std::string name(value.substr(0, eq));
  const std::string_view list = value.substr(eq + 1);
  if (name.empty()) throw CommandLineError(fmt::format("\"{}\" has no parameter name before '='", value));
  if (list.empty())
    throw CommandLineError(fmt::format("no values given for the parameter \"{}\" (write {}=value1,value2)", name, name));
  // One -p per parameter, as in JMH; a second -p for the same name adds values.
  auto& values = overrides(s).params[name];
  for (auto& v : split_list(list, ',')) values.push_back(std::move(v));
}

// Like -bm, -e and -prof, -tg may repeat (as jopt-simple collects its values):
// "-tg 3 -tg 1" is "-tg 3,1". The parser checks the total once all are in.
void apply_thread_groups(ParseState& s, std::string_view value) {
  auto& counts = overrides(s).thread_groups;
  if (!counts) counts.emplace();
  for (const auto& item : split_list(value, ',')) counts->push_back(parse_int(item, IntBound::non_negative));
}

void apply_modes(ParseState& s, std::string_view value) {
  auto& modes = overrides(s).modes;
  for (const auto& item : split_list(value, ','))
    for (auto m : parse_mode(item))
      if (std::find(modes.begin(), modes.end(), m) == modes.end()) modes.push_back(m);
}

void apply_excludes(ParseState& s, std::string_view value) {
  for (auto& regex : split_list(value, ',')) s.command_line.excludes.push_back(std::move(regex));
}

// Kept in name order: -h prints them in this order, as JMH's formatter sorts by name.
const FlagSpec kFlags[] = {
    {"bm", "", "mode", true,
     "Benchmark mode. Available modes are: [Throughput/thrpt, AverageTime/avgt, SampleTime/sample, "
     "SingleShotTime/ss, All/all]; full names or a unique prefix of the short label, comma-separated. "
     "Replaces the modes set in code. (default: Throughput)",
     apply_modes},
    {"bs", "", "int", false,
     "Batch size: number of benchmark calls per operation. Some benchmark modes may ignore this "
     "setting. (default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).measurement.batch_size = parse_int(v, IntBound::positive); }},
    {"e", "", "regexp+", true, "Benchmarks to exclude from the run; wins over the include patterns.", apply_excludes},
    {"f", "", "int", false,
     "How many times to fork a single benchmark. Use 0 to run in this process, for debugging only: "
     "results then depend on what ran before. (default: 3)",
     [](ParseState& s, std::string_view v) { overrides(s).fork.count = parse_int(v, IntBound::non_negative); }},
    {"foe", "", "bool", false,
     "Fail on error: stop the run at the first benchmark that fails, instead of going on with the "
     "next one. Either way the exit status is 2 when a benchmark failed. (default: false)",
     [](ParseState& s, std::string_view v) { s.command_line.fail_on_error = parse_bool(v); }},
    {"forkArgs", "jvmArgs", "string", true,
     "Fork arguments that replace the ones set in code (cmh::fork{n, {...}}): one space-separated "
     "string; quote a part that holds spaces. See \"Fork arguments\" below. Only forked runs use them.",
     [](ParseState& s, std::string_view v) {
       if (!s.fork_args) s.fork_args.emplace();
       append_split(*s.fork_args, v);
     }},
    {"forkArgsAppend", "jvmArgsAppend", "string", true,
     "Same as forkArgs, but added after the fork arguments in effect.",
     [](ParseState& s, std::string_view v) { append_split(s.fork_args_append, v); }},
    {"forkArgsPrepend", "jvmArgsPrepend", "string", true,
     "Same as forkArgs, but added before the fork arguments in effect.",
     [](ParseState& s, std::string_view v) { append_split(s.fork_args_prepend, v); }},
    {"gc", "", "bool", false,
     "Accepted so that JMH command lines keep working: C++ has no garbage collector to run between "
     "iterations. (default: false)",
     [](ParseState& s, std::string_view v) { overrides(s).gc_between_iterations = parse_bool(v); }},
    {"h", "help", "", false, "Display help, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.help = true; }},
    {"i", "", "int", false,
     "Number of measurement iterations to do. Measurement iterations are counted towards the "
     "benchmark score. (default: 1 for SingleShotTime, and 5 for all other modes)",
     [](ParseState& s, std::string_view v) { overrides(s).measurement.iterations = parse_int(v, IntBound::positive); }},
    {"l", "", "", false, "List the benchmarks that match a filter, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list = true; }},
    {"lp", "", "", false, "List the benchmarks that match a filter, along with parameters, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list_with_params = true; }},
    {"lprof", "", "", false, "List profilers, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list_profilers = true; }},
    {"lrf", "", "", false, "List machine-readable result formats, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list_formats = true; }},
    {"o", "", "filename", false, "Redirect human-readable output to a given file.",
     [](ParseState& s, std::string_view v) { s.command_line.output_file = non_empty(v, "a file name"); }},
    {"opi", "", "int", false,
     "Operations per invocation: how many operations one call of the benchmark counts as. "
     "(default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).ops_per_invocation = parse_int(v, IntBound::positive); }},
    {"p", "", "param={v,}*", true,
     "Benchmark parameters. This option is expected to be used once per parameter. Parameter name and "
     "parameter values should be separated with equals sign. Parameter values should be separated "
     "with commas. They replace the values declared in code.",
     apply_params},
    {"prof", "", "profiler", true,
     "Use a profiler to collect additional data; repeat -prof for several. Options follow a colon: "
     "name:key=value;key2=value. name:help prints a profiler's options; -lprof lists the profilers.",
     [](ParseState& s, std::string_view v) { s.command_line.profilers.push_back(non_empty(v, "a profiler name")); }},
    {"r", "", "time", false,
     "Minimum time to spend at each measurement iteration. Benchmarks may generally run longer than "
     "iteration duration. (default: 1 s)",
     [](ParseState& s, std::string_view v) { overrides(s).measurement.time = parse_time(v); }},
    {"rf", "", "type", false,
     "Format of the machine-readable result file; several formats may be given, comma-separated. See "
     "the list of formats with -lrf. Giving -rf or -rff turns result files on. (default: the format "
     "the extension of -rff names, else csv)",
     [](ParseState& s, std::string_view v) { s.command_line.result_format = non_empty(v, "a format name"); }},
    {"rff", "", "filename", false,
     "Write machine-readable results to a given file, in the format of -rf. (default: "
     "cmh-result.<result-format>)",
     [](ParseState& s, std::string_view v) { s.command_line.result_file = non_empty(v, "a file name"); }},
    {"si", "", "bool", false,
     "Synchronize iterations: every thread starts measuring only when all have started and keeps "
     "running until all have stopped, which lowers the noise of multithreaded benchmarks. Always off "
     "for SingleShotTime. (default: true)",
     [](ParseState& s, std::string_view v) { overrides(s).sync_iterations = parse_bool(v); }},
    {"t", "", "int", false,
     "Number of worker threads to run with. 'max' means every CPU this process may run on, "
     "'halfmax' half of them, rounded up. (default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).threads = parse_threads(v); }},
    {"tg", "", "int+", true,
     "Override thread group distribution for asymmetric (@Group-style) benchmarks: a comma-separated "
     "list of thread counts, one per member of the group.",
     apply_thread_groups},
    {"to", "", "time", false,
     "Timeout for a benchmark iteration. After reaching it the fork is stopped and the benchmark is "
     "reported as failed. (default: 10 min)",
     [](ParseState& s, std::string_view v) {
       const Nanos t = parse_time(v);
       if (t.count() == 0) throw CommandLineError(fmt::format("the timeout \"{}\" should be positive", v));
       overrides(s).timeout = t;
     }},
    {"tu", "", "TU", false,
     "Override time unit in benchmark results. Available time units are: [ns, us, ms, s, m, h, day]. "
     "(default: s for Throughput (ops/s), ns for the time modes (ns/op))",
     [](ParseState& s, std::string_view v) { overrides(s).output_unit = parse_time_unit(v); }},
    {"v", "", "mode", false, "Verbosity mode. Available modes are: [SILENT, NORMAL, EXTRA]. (default: NORMAL)",
     [](ParseState& s, std::string_view v) { s.command_line.verbosity = parse_verbosity(v); }},
    {"w", "", "time", false,
     "Minimum time to spend at each warmup iteration. Benchmarks may generally run longer than "
     "iteration duration. (default: 1 s)",
     [](ParseState& s, std::string_view v) { overrides(s).warmup.time = parse_time(v); }},
    {"wbs", "", "int", false,
     "Warmup batch size: number of benchmark calls per operation. Some benchmark modes may ignore this "
     "setting. (default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).warmup.batch_size = parse_int(v, IntBound::positive); }},
    {"wf", "", "int", false,
     "How many warmup forks to make for a single benchmark. All iterations within the warmup fork are "
     "not counted towards the benchmark score. Use 0 to disable warmup forks. (default: 0)",
     [](ParseState& s, std::string_view v) { overrides(s).fork.warmups = parse_int(v, IntBound::non_negative); }},
    {"wi", "", "int", false,
     "Number of warmup iterations to do. Warmup iterations are not counted towards the benchmark "
     "score. (default: 0 for SingleShotTime, and 3 for all other modes)",
     [](ParseState& s, std::string_view v) { overrides(s).warmup.iterations = parse_int(v, IntBound::non_negative); }},
};

}  // namespace

std::span<const FlagSpec> flag_table() { return kFlags; }

}  // namespace cmh::cli

// SPDX-License-Identifier: MIT
// The flag table (see flags.hpp): JMH's flags with cmh's defaults, each with the
// function that parses and stores its value.
#include "cli/flags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include "cli/values.hpp"
#include "engine/pinning.hpp"

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
  for (const auto& item : split_list(value, ',')) counts->push_back(parse_int(item, IntBound::non_negative, kMaxThreads));
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

/// A time that must be more than zero: "the <what> "0" should be positive" otherwise.
Nanos positive_time(std::string_view value, std::string_view what) {
  const Nanos t = parse_time(value);
  if (t.count() <= 0) throw CommandLineError(fmt::format("the {} \"{}\" should be positive", what, value));
  return t;
}

// "2%" or "0.02": a fraction in (0, 1).
double parse_precision(std::string_view value) {
  const bool percent = value.ends_with('%');
  const std::string text(percent ? value.substr(0, value.size() - 1) : value);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const double fraction = percent ? v / 100.0 : v;
  if (text.empty() || end != text.c_str() + text.size() || !(fraction > 0 && fraction < 1))
    throw CommandLineError(fmt::format("\"{}\" is not a precision such as 2% or 0.02", value));
  return fraction;
}

// Kept in name order: -h prints them in this order, as JMH's formatter sorts by name.
const FlagSpec kFlags[] = {
    {"bm", "", "mode", true,
     "Benchmark mode. Available modes are: [Throughput/thrpt, AverageTime/avgt, SampleTime/sample, "
     "SingleShotTime/ss, All/all]; full names or a unique prefix of the short label, comma-separated. "
     "Replaces the modes set in code. (default: Throughput)",
     apply_modes},
    {"bs", "", "int", false,
     "Calls of the benchmark body that make up one measured operation (for work that is not in a "
     "steady state; used by single shot, ignored where it makes no sense). (default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).measurement.batch_size = parse_int(v, IntBound::positive); }},
    {"e", "", "regexp+", true, "Benchmarks to exclude from the run; wins over the include patterns.", apply_excludes},
    {"f", "", "int", false,
     "Fresh processes each benchmark runs in, one after another, their iterations pooled. 0 runs "
     "in this process, for debugging only: results then depend on what ran before. (default: 3)",
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
    {"forkStartTimeout", "", "time", false,
     "How long a fork may take to start (exec, static initialisation, the bundled allocator's "
     "start-up, up to its handshake in main) before it is stopped and reported as hung at start-up, "
     "with its threads' stacks when eu-stack or gdb is installed. The time to pre-touch its -Xms "
     "heap (-XX:+AlwaysPreTouch), measured on this machine, is added. The trial's set-up after the "
     "handshake is bounded by -to. (default: 5 s, or 10 x this process's own start-up where that is "
     "longer; 10 times that under a profiler that wraps the fork)",
     [](ParseState& s, std::string_view v) {
       s.command_line.fork_start_timeout = positive_time(v, "start-up timeout");
     }},
    {"gc", "", "bool", false,
     "Run a full collection of the bundled allocator between iterations (cmh_alloc_collect(): "
     "drain frees from other threads, give free memory back to the OS), as JMH's System.gc(). "
     "(default: false)",
     [](ParseState& s, std::string_view v) { overrides(s).gc_between_iterations = parse_bool(v); }},
    {"h", "help", "", false, "Print this text and exit.",
     [](ParseState& s, std::string_view) { s.command_line.help = true; }},
    {"i", "", "int", false,
     "Measurement iterations per fork; their scores make the result. (default: 1 for SingleShotTime, "
     "and 5 for all other modes)",
     [](ParseState& s, std::string_view v) { overrides(s).measurement.iterations = parse_int(v, IntBound::positive); }},
    {"l", "", "", false, "Print the names of the selected benchmarks and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list = true; }},
    {"lp", "", "", false, "Print the selected benchmarks with their parameters and values, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list_with_params = true; }},
    {"lprof", "", "", false, "Print the profilers, those that cannot run here with the reason, and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list_profilers = true; }},
    {"lrf", "", "", false, "Print the result-file formats and exit.",
     [](ParseState& s, std::string_view) { s.command_line.list_formats = true; }},
    {"maxTime", "", "time", false,
     "With -prec: the most time one benchmark may take before cmh stops adding iterations and "
     "forks and reports the precision reached; each fork gets its share. (default: 60 s)",
     [](ParseState& s, std::string_view v) { s.command_line.max_time = positive_time(v, "time budget"); }},
    {"o", "", "filename", false, "Write the console report to this file instead of standard output.",
     [](ParseState& s, std::string_view v) { s.command_line.output_file = non_empty(v, "a file name"); }},
    {"opi", "", "int", false,
     "Operations per invocation: how many operations one call of the benchmark counts as. "
     "(default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).ops_per_invocation = parse_int(v, IntBound::positive); }},
    {"p", "", "param={v,}*", true,
     "Values of one parameter, e.g. -p size=10,1000; give one -p per parameter. They replace the "
     "values declared in code; each must convert to the parameter's type.",
     apply_params},
    {"pin", "", "where", false,
     "Where the worker threads run: none (the scheduler decides), cpus (each on its own logical CPU), "
     "cores (each on its own physical core, its SMT siblings left idle) or a CPU list such as 2,3 (thread "
     "i on the i-th). Only CPUs this process may run on (cpuset, taskset, --cpunodebind); performance "
     "cores first on hybrid CPUs. The control thread moves to the CPUs left over. More threads than "
     "CPUs (cores) fails the benchmark. cmh.pinning records where each ran. (default: none)",
     [](ParseState& s, std::string_view v) {
       if (auto problem = engine::pin_spec_problem(v)) throw CommandLineError(*problem);
       s.command_line.pin = std::string(v);
     }},
    {"prec", "", "precision[:robust]", false,
     "Target precision, e.g. 2%: each fork (also -f 0) keeps adding measurement iterations after -i "
     "(up to 4 x -i, at least 50) until its 99.9 % error is at most this share of its mean, then "
     "forks are added (up to 20, or -f if more) until the score's error is; -maxTime bounds both. "
     "The report says what stopped it. 2%:robust targets the robust estimate's interval instead "
     "(without its stall margin, which forks cannot narrow): "
     "forks keep to -i and forks are added (the interval is clustered by fork); it turns on "
     "-subwin auto unless -subwin is given, and says when the forks' estimates drift apart by "
     "more than the target.",
     [](ParseState& s, std::string_view v) {
       constexpr std::string_view kRobust = ":robust";
       const bool robust = v.ends_with(kRobust);
       s.command_line.precision = parse_precision(robust ? v.substr(0, v.size() - kRobust.size()) : v);
       s.command_line.precision_robust = robust;
     }},
    {"prof", "", "profiler", true,
     "Use a profiler to collect additional data; repeat -prof for several. Options follow a colon: "
     "name:key=value;key2=value. name:help prints a profiler's options; -lprof lists the profilers.",
     [](ParseState& s, std::string_view v) { s.command_line.profilers.push_back(non_empty(v, "a profiler name")); }},
    {"quick", "", "", false,
     "Quick run for the edit-run loop: 1 fork, 2 warmup iterations of 100 ms, 5 measurement "
     "iterations of 100 ms; -f, -wi, -w, -i and -r still win. The report header says it is a quick "
     "run: keep its numbers only as a rough guide.",
     [](ParseState& s, std::string_view) { s.command_line.quick = true; }},
    {"r", "", "time", false,
     "Length of each measurement iteration: the least time it lasts (a call in progress is finished "
     "first). (default: 1 s)",
     [](ParseState& s, std::string_view v) { overrides(s).measurement.time = parse_time(v); }},
    {"rf", "", "type", false,
     "Format of the machine-readable result file; several formats may be given, comma-separated. See "
     "the list of formats with -lrf. Giving -rf or -rff turns result files on. (default: the format "
     "the extension of -rff names, else csv)",
     [](ParseState& s, std::string_view v) { s.command_line.result_format = non_empty(v, "a format name"); }},
    {"rff", "", "filename", false,
     "File the results are written to, in the format of -rf, after every benchmark. (default: "
     "cmh-result.<result-format>)",
     [](ParseState& s, std::string_view v) { s.command_line.result_file = non_empty(v, "a file name"); }},
    {"shard", "", "I/N", false,
     "Run part I of the selected benchmark runs split N ways (0 <= I < N), for a suite spread over "
     "machines: each run (benchmark x mode x parameter point) goes to one part, balanced by its "
     "expected time; the parts' union is the whole. Also CMH_SHARD_INDEX and CMH_TOTAL_SHARDS. "
     "(default: 0/1, everything)",
     [](ParseState& s, std::string_view v) { s.command_line.shard = parse_shard(v, "-shard"); }},
    {"si", "", "bool", false,
     "Synchronize iterations: every thread starts measuring only when all have started and keeps "
     "running until all have stopped, which lowers the noise of multithreaded benchmarks. Always off "
     "for SingleShotTime. (default: true)",
     [](ParseState& s, std::string_view v) { overrides(s).sync_iterations = parse_bool(v); }},
    {"strict", "", "", false,
     "Refuse to run, one line per reason, when the machine is not fit for a run whose precision you "
     "will state: frequency governor not performance, turbo/boost on, workers not pinned (-pin), load "
     "average high. Without it the same reasons are warnings. cmh-system show and tune prepare the "
     "machine (docs/preparing-the-machine.md).",
     [](ParseState& s, std::string_view) { s.command_line.strict = true; }},
    {"subwin", "", "time", false,
     "Also time each measurement iteration in short sub-windows of about this length (e.g. 1ms), "
     "or 'auto': as short as this machine's clock allows (1000 times a window's bookkeeping). "
     "A window in which the thread was switched out is kept with its run-queue wait taken out "
     "(/proc/thread-self/schedstat) or, where that is unknown, left out; the window after a switch "
     "is left out of the robust estimate (the Robust line, cmh.robustEstimate; see "
     "docs/statistics.md); the median "
     "of all windows is cmh.subwindowMedian. Time modes without invocation fixtures. (default: off)",
     [](ParseState& s, std::string_view v) {
       if (v == "auto") {
         overrides(s).subwindow = kSubwindowAuto;
         return;
       }
       overrides(s).subwindow = positive_time(v, "sub-window");
     }},
    {"t", "", "int", false,
     "Worker threads that run the benchmark at once. 'max' means every CPU this process may run on, "
     "'halfmax' half of them, rounded up. (default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).threads = parse_threads(v); }},
    {"tg", "", "int+", true,
     "Threads per member of a thread-group benchmark (CMH_GROUP_BENCHMARK), comma-separated, in "
     "member order; replaces cmh::group_threads in code.",
     apply_thread_groups},
    {"to", "", "time", false,
     "How long an iteration may overrun its time before the fork is stopped and the benchmark "
     "reported as failed; also the longest a fork may go without progress outside an iteration "
     "(the trial's set-up before the first one, between iterations, its tear-down). A fork's "
     "start-up, up to its handshake, has its own bound: -forkStartTimeout. (default: 10 min)",
     [](ParseState& s, std::string_view v) { overrides(s).timeout = positive_time(v, "timeout"); }},
    {"tu", "", "TU", false,
     "Time unit the scores are shown in, one of [ns, us, ms, s, m, h, day]. "
     "(default: s for Throughput (ops/s), ns for the time modes (ns/op))",
     [](ParseState& s, std::string_view v) { overrides(s).output_unit = parse_time_unit(v); }},
    {"v", "", "mode", false, "How much to print: SILENT, NORMAL, or EXTRA (adds the fork command lines). (default: NORMAL)",
     [](ParseState& s, std::string_view v) { s.command_line.verbosity = parse_verbosity(v); }},
    {"w", "", "time", false,
     "Length of each warmup iteration: the least time it lasts (a call in progress is finished "
     "first). (default: 1 s)",
     [](ParseState& s, std::string_view v) { overrides(s).warmup.time = parse_time(v); }},
    {"wbs", "", "int", false,
     "Like -bs, for warmup iterations. (default: 1)",
     [](ParseState& s, std::string_view v) { overrides(s).warmup.batch_size = parse_int(v, IntBound::positive); }},
    {"wf", "", "int", false,
     "Forks run before the measured ones, whose results are printed but left out of the score. "
     "(default: 0)",
     [](ParseState& s, std::string_view v) { overrides(s).fork.warmups = parse_int(v, IntBound::non_negative); }},
    {"wi", "", "int", false,
     "Warmup iterations per fork, run before measuring and left out of the score. (default: 0 for "
     "SingleShotTime, and 3 for all other modes)",
     [](ParseState& s, std::string_view v) { overrides(s).warmup.iterations = parse_int(v, IntBound::non_negative); }},
    {"wm", "", "mode", false,
     "Warmup mode: INDI warms each benchmark up on its own; BULK runs the warmup iterations of "
     "every selected benchmark (and those of -wmb) first, in each fork, and then measures the "
     "fork's benchmark without its own warmup; BULK_INDI does both. (default: INDI)",
     [](ParseState& s, std::string_view v) { s.command_line.warmup_mode = parse_warmup_mode(v); }},
    {"wmb", "", "regexp+", true,
     "Benchmarks whose warmup iterations run first in each fork, before the bulk warmup of -wm "
     "BULK (with -wm INDI, before the benchmark's own warmup); they are not measured.",
     [](ParseState& s, std::string_view v) {
       for (auto& regex : split_list(v, ',')) s.command_line.warmup_includes.push_back(std::move(regex));
     }},
};

}  // namespace

void apply_quick_preset(OptionSet& o) {
  using std::chrono::milliseconds;
  if (!o.fork.count) o.fork.count = 1;
  if (!o.warmup.iterations) o.warmup.iterations = 2;
  if (!o.warmup.time) o.warmup.time = milliseconds(100);
  if (!o.measurement.iterations) o.measurement.iterations = 5;
  if (!o.measurement.time) o.measurement.time = milliseconds(100);
}

std::string_view quick_run_note() {
  return "# Quick run (-quick): one fork and short iterations, for the edit-run loop; rerun without "
         "-quick for numbers to keep";
}

std::span<const FlagSpec> flag_table() { return kFlags; }

}  // namespace cmh::cli

// SPDX-License-Identifier: MIT
// Initialize / RunSpecifiedBenchmarks: the instances become cmh benchmarks, the
// flags become cmh's command line, and cmh's entry point runs them: as the
// host (plan, forks, report) or, in a fork, as the worker. A fork re-executes
// this program, whose main() calls these again, so the registration is the same.
#include <benchmark/benchmark.h>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/custom_context.hpp>
#include <cmh/main.hpp>
#include <cmh/registry.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include "family.hpp"
#include "flags.hpp"
#include "outputs.hpp"
#include "runner.hpp"

namespace benchmark {
namespace {

constexpr std::string_view kWorkerOption = "--cmh-fork-worker=";

struct Globals {
  std::string program = "benchmark";
  std::vector<std::string> args;
  TimeUnit default_unit = kNanosecond;  ///< SetDefaultTimeUnit
  internal::FamilyDefaults defaults;     ///< from the --benchmark_* flags
  bool registered = false;
};
Globals& globals() {
  static Globals g;
  return g;
}

cmh::TimeUnit to_cmh(TimeUnit u) {
  switch (u) {
    case kNanosecond: return cmh::TimeUnit::ns;
    case kMicrosecond: return cmh::TimeUnit::us;
    case kMillisecond: return cmh::TimeUnit::ms;
    case kSecond: return cmh::TimeUnit::s;
  }
  return cmh::TimeUnit::ns;
}

cmh::Nanos seconds_to_nanos(double s) { return cmh::Nanos(static_cast<long long>(std::llround(s * 1e9))); }

/// Every instance as a cmh benchmark named as Google Benchmark names it.
void register_instances() {
  if (globals().registered) return;
  globals().registered = true;
  for (const internal::Instance& in : internal::instances()) {
    const internal::Family& f = *in.family;
    cmh::BenchmarkDefinition def;
    def.group = in.name;
    def.name = "";
    auto code = std::make_shared<cmh::detail::BenchmarkCode>();
    code->members.push_back(internal::Runner::member_code(in));
    def.params = code->members.front().params;
    def.code = std::move(code);
    // The family's own settings; else the --benchmark_* flags' defaults (Google
    // Benchmark's order); cmh's command line still overrides both.
    const internal::FamilyDefaults& d = globals().defaults;
    cmh::OptionSet& o = def.benchmark_options;
    const IterationCount fixed = f.iterations > 0 ? f.iterations : d.iterations.value_or(0);
    o.modes = {fixed > 0 ? cmh::BenchmarkMode::single_shot : cmh::BenchmarkMode::average_time};
    o.output_unit = to_cmh(f.unit.value_or(d.unit.value_or(globals().default_unit)));
    if (!f.thread_counts.empty()) o.threads = in.threads;
    if (f.min_time) {
      o.measurement.time = seconds_to_nanos(*f.min_time);
    } else if (d.min_time) {
      o.measurement.time = seconds_to_nanos(*d.min_time);
    }
    if (f.min_warmup_time) {
      o.warmup.time = seconds_to_nanos(*f.min_warmup_time);
    } else if (d.min_warmup_time && *d.min_warmup_time == 0) {
      o.warmup.iterations = 0;
    } else if (d.min_warmup_time) {
      o.warmup.time = seconds_to_nanos(*d.min_warmup_time);
    }
    if (fixed > 0) {
      const int n = static_cast<int>(std::min<IterationCount>(fixed, 1 << 30));
      o.measurement.batch_size = n;
      o.warmup.batch_size = n;
      o.ops_per_invocation = n;
    }
    if (f.repetitions > 0) {
      o.fork.count = f.repetitions;
    } else if (d.repetitions) {
      o.fork.count = *d.repetitions;
    }
    cmh::detail::register_benchmark(std::move(def));
  }
}

[[noreturn]] void flag_error(const std::string& message) {
  std::fprintf(stderr, "Error parsing command line:\n %s\n", message.c_str());
  std::exit(1);
}

/// The instances a --benchmark_filter selects (cmh's regexp rules: ECMAScript, anywhere in the name).
std::vector<const internal::Instance*> selected(const internal::Translation& t) {
  std::vector<const internal::Instance*> out;
  std::optional<std::regex> re;
  try {
    if (t.filter) re.emplace(*t.filter);
  } catch (const std::regex_error& e) {
    flag_error("--benchmark_filter=" + *t.filter + ": invalid regexp (" + e.what() + ")");
  }
  for (const auto& in : internal::instances()) {
    const bool match = !re || std::regex_search(in.name, *re);
    if (match != t.negative_filter) out.push_back(&in);
  }
  return out;
}

void print_notes(const internal::Translation& t, std::FILE* to) {
  for (const auto& n : t.notes) std::fprintf(to, "# gbench flag: %s\n", n.c_str());
}

/// Once per family: what cmh records but does not compute.
void print_unsupported_notes() {
  for (internal::Benchmark* b : internal::families()) {
    const internal::Family& f = b->family();
    if (f.complexity != oNone)
      std::fprintf(stderr, "# %s: Complexity() is recorded (secondary result complexity.n); cmh computes no Big-O fit\n",
                   f.name.c_str());
    for (const auto& s : f.statistics)
      std::fprintf(stderr, "# %s: ComputeStatistics(\"%s\") is not computed by cmh (it reports JMH's statistics)\n",
                   f.name.c_str(), s.c_str());
  }
}

/// --help: Google Benchmark's flags first; cmh's -h text follows.
void print_gbench_help() {
  std::printf(
      "Google Benchmark's flags (1.7 to 1.9), read as Google Benchmark reads them and run by cmh\n"
      "(docs/google-benchmark.md says what each becomes):\n"
      "  --benchmark_list_tests  --benchmark_filter=<regex>  --benchmark_min_time=<N>s|<N>x\n"
      "  --benchmark_min_warmup_time=<seconds>  --benchmark_repetitions=<n>  --benchmark_dry_run\n"
      "  --benchmark_enable_random_interleaving  --benchmark_report_aggregates_only\n"
      "  --benchmark_display_aggregates_only  --benchmark_format=console|json|csv\n"
      "  --benchmark_out=<file>  --benchmark_out_format=json|console|csv  --benchmark_color=<any>\n"
      "  --benchmark_counters_tabular  --benchmark_perf_counters=<names>  --benchmark_context=k=v,...\n"
      "  --benchmark_time_unit=ns|us|ms|s  --v=<level>\n"
      "Each may also come from its environment variable (BENCHMARK_FILTER=...); the last one given wins.\n\n");
}

int run_cmh(const std::vector<std::string>& args) {
  std::vector<std::string> argv_text{globals().program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cmh::run_main(static_cast<int>(argv_text.size()), argv.data());
}

/// The family an output row's run_name belongs to: its instance's, or that of the
/// longest instance name it extends (cmh adds "/mode:avgt" when a name is shared).
const internal::Family* family_of_run(const std::string& run_name) {
  const internal::Family* best = nullptr;
  std::size_t best_length = 0;
  for (const auto& in : internal::instances()) {
    if (in.name == run_name) return in.family;
    const bool extends = run_name.size() > in.name.size() && run_name.compare(0, in.name.size(), in.name) == 0 &&
                         run_name[in.name.size()] == '/';
    if (extends && in.name.size() >= best_length) {
      best = in.family;
      best_length = in.name.size();
    }
  }
  return best;
}

}  // namespace

void Initialize(int* argc, char** argv, void (*)()) {
  Globals& g = globals();
  if (*argc > 0 && argv[0] != nullptr) g.program = argv[0];
  g.args.clear();
  for (int i = 1; i < *argc; ++i) g.args.emplace_back(argv[i]);
  *argc = *argc > 0 ? 1 : 0;
}

bool ReportUnrecognizedArguments(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) std::fprintf(stderr, "%s: error: unrecognized command-line flag: %s\n", argv[0], argv[i]);
  return argc > 1;
}

std::size_t RunSpecifiedBenchmarks() { return RunSpecifiedBenchmarks(std::string()); }

std::size_t RunSpecifiedBenchmarks(std::string spec) {
  Globals& g = globals();
  // In a fork: the worker, then exit with its status whatever main() does next.
  if (g.args.size() == 1 && g.args[0].rfind(kWorkerOption, 0) == 0) {
    register_instances();
    const int status = run_cmh(g.args);
    std::fflush(nullptr);
    std::exit(status);
  }
  std::vector<std::string> args = g.args;
  if (!spec.empty()) args.insert(args.begin(), "--benchmark_filter=" + spec);
  internal::Translation t;
  try {
    t = internal::translate_flags(args);
  } catch (const internal::FlagError& e) {
    flag_error(e.what());
  }
  g.defaults = t.defaults;  // before the instances take their options
  register_instances();
  const auto chosen = selected(t);
  if (t.list_tests) {
    for (const auto* in : chosen) std::printf("%s\n", in->name.c_str());
    std::fflush(stdout);
    return chosen.size();
  }
  if (chosen.empty() && t.filter) {
    // Google Benchmark's answer, and its exit status 0: a CI script that runs every binary
    // with one filter expects it (cmh's own regexps keep JMH's "No matching benchmarks", 1).
    std::fprintf(stderr, "Failed to match any benchmarks against regex: %s\n",
                 (t.negative_filter ? "-" + *t.filter : *t.filter).c_str());
    return 0;
  }
  if (t.help) print_gbench_help();
  for (const auto& [key, value] : t.context) cmh::detail::add_custom_context(key, value);
  std::optional<internal::Outputs> outputs;
  try {
    outputs.emplace(t);
  } catch (const internal::FlagError& e) {
    flag_error(e.what());
  }
  t.cmh_args.insert(t.cmh_args.end(), outputs->cmh_args().begin(), outputs->cmh_args().end());
  const bool display_on_stdout = outputs->display_on_stdout();
  for (const auto& line : t.ignored) std::fprintf(stderr, "# %s\n", line.c_str());
  if (t.verbose_extra) print_notes(t, display_on_stdout ? stderr : stdout);
  print_unsupported_notes();
  std::fflush(stdout);
  // --benchmark_format=json|csv puts the formatted results alone on stdout, so the report
  // goes to stderr: fd 1 is pointed at fd 2 while cmh runs (its forks inherit that). Not
  // "-o /dev/stderr": that path is missing where /dev is a bare devtmpfs (an initramfs, some
  // containers; the report then went to a regular file), and reopening it truncates a
  // file that stderr was redirected to.
  const int saved_stdout = display_on_stdout ? ::dup(STDOUT_FILENO) : -1;
  if (saved_stdout >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
  const int status = run_cmh(t.cmh_args);
  if (saved_stdout >= 0) {
    std::fflush(stdout);
    std::cout.flush();
    ::dup2(saved_stdout, STDOUT_FILENO);
    ::close(saved_stdout);
  }
  bool written = true;
  if (status != 1) {  // 1: a bad command line, nothing ran
    written = outputs->finish([&t](const std::string& run_name, bool display) {
      const internal::Family* f = family_of_run(run_name);
      if (f != nullptr && f->aggregates_mode_set) return display ? f->display_aggregates_only : f->file_aggregates_only;
      return display ? t.report_aggregates_only || t.display_aggregates_only : t.report_aggregates_only;
    });
  }
  outputs.reset();
  std::fflush(nullptr);
  if (status != 0) std::exit(status);
  if (!written) std::exit(2);
  return chosen.size();
}

const CPUInfo& CPUInfo::Get() {
  static const CPUInfo info = [] {
    CPUInfo i;
    i.num_cpus = static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
      if (line.rfind("cpu MHz", 0) == 0 && line.find(':') != std::string::npos) {
        i.cycles_per_second = std::atof(line.c_str() + line.find(':') + 1) * 1e6;
        break;
      }
    }
    std::ifstream governor("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    std::string g;
    i.scaling = (governor >> g) && g != "performance";
    return i;
  }();
  return info;
}

const SystemInfo& SystemInfo::Get() {
  static const SystemInfo info = [] {
    SystemInfo s;
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) s.name = host;
    return s;
  }();
  return info;
}

void Shutdown() {}
void SetDefaultTimeUnit(TimeUnit unit) { globals().default_unit = unit; }
TimeUnit GetDefaultTimeUnit() { return globals().default_unit; }
void AddCustomContext(const std::string& key, const std::string& value) {
  if (!cmh::detail::add_custom_context(key, value))
    std::fprintf(stderr, "Failed to add custom context \"%s\" as it already exists\n", key.c_str());
}

}  // namespace benchmark

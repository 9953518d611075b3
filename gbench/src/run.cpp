// SPDX-License-Identifier: MIT
// Initialize / RunSpecifiedBenchmarks: the instances become cmh benchmarks, the
// flags become cmh's command line, and cmh's entry point runs them: as the
// host (plan, forks, report) or, in a fork, as the worker. A fork re-executes
// this program, whose main() calls these again, so the registration is the same.
#include <benchmark/benchmark.h>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/main.hpp>
#include <cmh/registry.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "family.hpp"
#include "flags.hpp"
#include "runner.hpp"

namespace benchmark {
namespace {

constexpr std::string_view kWorkerOption = "--cmh-fork-worker=";

struct Globals {
  std::string program = "benchmark";
  std::vector<std::string> args;
  TimeUnit default_unit = kNanosecond;
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
    cmh::OptionSet& o = def.benchmark_options;
    o.modes = {f.iterations > 0 ? cmh::BenchmarkMode::single_shot : cmh::BenchmarkMode::average_time};
    o.output_unit = to_cmh(f.unit.value_or(globals().default_unit));
    if (!f.thread_counts.empty()) o.threads = in.threads;
    if (f.min_time) o.measurement.time = seconds_to_nanos(*f.min_time);
    if (f.min_warmup_time) o.warmup.time = seconds_to_nanos(*f.min_warmup_time);
    if (f.iterations > 0) {
      const int n = static_cast<int>(std::min<IterationCount>(f.iterations, 1 << 30));
      o.measurement.batch_size = n;
      o.warmup.batch_size = n;
      o.ops_per_invocation = n;
    }
    if (f.repetitions > 0) o.fork.count = f.repetitions;
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

void print_notes(const internal::Translation& t) {
  for (const auto& n : t.notes) std::printf("# gbench flag: %s\n", n.c_str());
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

std::string temporary_file() {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/cmh-gbench-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) flag_error("--benchmark_format: cannot create a temporary file in " + path);
  ::close(fd);
  return path;
}

int run_cmh(const std::vector<std::string>& args) {
  std::vector<std::string> argv_text{globals().program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cmh::run_main(static_cast<int>(argv_text.size()), argv.data());
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
  register_instances();
  // In a fork: the worker, then exit with its status whatever main() does next.
  if (g.args.size() == 1 && g.args[0].rfind(kWorkerOption, 0) == 0) {
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
  const auto chosen = selected(t);
  if (t.list_tests) {
    for (const auto* in : chosen) std::printf("%s\n", in->name.c_str());
    std::fflush(stdout);
    return chosen.size();
  }
  if (t.verbose_extra) print_notes(t);
  print_unsupported_notes();
  std::string stdout_file;
  if (t.stdout_format) {
    stdout_file = temporary_file();
    t.cmh_args.insert(t.cmh_args.end(), {"-rf", *t.stdout_format, "-rff", stdout_file});
  }
  std::fflush(stdout);
  // --benchmark_format puts the formatted results alone on stdout, so the report goes to
  // stderr: fd 1 is pointed at fd 2 while cmh runs (its forks inherit that). Not "-o
  // /dev/stderr": that path is missing where /dev is a bare devtmpfs (an initramfs, some
  // containers; the report then went to a regular file), and reopening it truncates a
  // file that stderr was redirected to.
  const int saved_stdout = stdout_file.empty() ? -1 : ::dup(STDOUT_FILENO);
  if (saved_stdout >= 0) ::dup2(STDERR_FILENO, STDOUT_FILENO);
  const int status = run_cmh(t.cmh_args);
  if (saved_stdout >= 0) {
    std::fflush(stdout);
    std::cout.flush();
    ::dup2(saved_stdout, STDOUT_FILENO);
    ::close(saved_stdout);
  }
  if (!stdout_file.empty()) {
    std::ifstream in(stdout_file);
    std::cout << in.rdbuf();
    std::cout.flush();
    ::unlink(stdout_file.c_str());
  }
  std::fflush(nullptr);
  if (status != 0) std::exit(status);
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
void AddCustomContext(const std::string&, const std::string&) {}

}  // namespace benchmark

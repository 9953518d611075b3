// SPDX-License-Identifier: MIT
// -prof icount on the host: the fork under Callgrind (see icount_rerun.hpp).
#include "icount_rerun.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>

#include <cmh/profiler.hpp>
#include <fmt/format.h>

#include <cmh/detail/extra_fork.hpp>

#include "callgrind_costs.hpp"
#include "icount_counter.hpp"

extern char** environ;

namespace cmh::profilers {
namespace {

using namespace std::chrono_literals;

constexpr const char* kFixedPath = "/usr/local/bin:/usr/bin:/bin";
constexpr std::size_t kReasonLines = 6;

/// The first line of `cmd`'s stdout ("" if it could not run). `cmd` is built from an
/// absolute path found in PATH, single-quoted.
std::string first_line_of(const std::string& cmd) {
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return {};
  char buf[256] = {};
  std::string line = std::fgets(buf, sizeof buf, p) ? buf : "";
  ::pclose(p);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string single_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A fresh private directory for one fork's Callgrind output, removed when it goes.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string base = tmp && *tmp ? tmp : "/tmp";
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    std::string pattern = base + "/cmh-icount-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      throw ProfilerError("-prof icount: cannot create a directory for Callgrind's output in " + base);
    path_ = pattern;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Wraps the fork in setarch/env/valgrind and keeps Valgrind's stderr for the reason
/// of a failure.
class CallgrindWrapper final : public ExternalProfiler {
 public:
  CallgrindWrapper(const ValgrindInstall& valgrind, const IcountSettings& settings, std::string out_file)
      : valgrind_(valgrind), settings_(settings), out_file_(std::move(out_file)) {}

  std::vector<std::string> command_prefix(const BenchmarkParams& plan) override {
    const std::string setarch = forking::find_in_path("setarch");
    const std::string env = forking::find_in_path("env");
    if (setarch.empty() || env.empty())
      throw ProfilerError("-prof icount: setarch or env not found in PATH (Debian: util-linux, coreutils)");
    std::vector<std::string> words = {setarch, "-R", env, "-i"};
    for (const auto& [name, value] : fixed_environment(plan)) words.push_back(name + "=" + value);
    words.insert(words.end(),
                 {valgrind_.path, "-q", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
                  "--cache-sim=yes", "--I1=" + std::string(kIcountI1), "--D1=" + std::string(kIcountD1),
                  "--LL=" + std::string(kIcountLL), std::string("--branch-sim=") + (settings_.branch ? "yes" : "no"),
                  "--sigill-diagnostics=yes", "--callgrind-out-file=" + out_file_});
    return words;
  }

  std::vector<ScalarResult> after_trial(const BenchmarkParams&, const ForkResult&, long, std::string_view,
                                        std::string_view stderr_text) override {
    reason_ = valgrind_reason(stderr_text);
    return {};
  }
  bool allow_print_out() const override { return false; }
  bool allow_print_err() const override { return false; }

  const std::string& reason() const { return reason_; }

 private:
  /// Sorted by name, so that the fork's environment block is the same every time.
  std::map<std::string, std::string> fixed_environment(const BenchmarkParams& plan) const {
    std::map<std::string, std::string> env;
    for (char** e = environ; e && *e; ++e) {
      const std::string_view entry(*e);
      const std::size_t eq = entry.find('=');
      if (eq != std::string_view::npos && entry.starts_with("CMH_"))
        env[std::string(entry.substr(0, eq))] = std::string(entry.substr(eq + 1));
    }
    env["PATH"] = kFixedPath;
    env["LC_ALL"] = "C";
    const forking::ForkEnvironment fork_env = forking::fork_environment(plan.fork_args);  // validated before the run
    for (const auto& [name, value] : fork_env.variables) env[name] = value;
    // The bundled allocator's purge thread runs on a timer: under Callgrind its memory
    // traffic reached the shared simulated caches at different moments from run to run
    // (the misses, not the instructions, then differed). The fork under Callgrind runs
    // without it unless the fork arguments or CMH_ALLOC say otherwise.
    if (fork_env.bundled_allocator) {
      std::string& alloc = env["CMH_ALLOC"];
      if (alloc.find("BackgroundPurge") == std::string::npos)
        alloc += (alloc.empty() ? "" : " ") + std::string("-XX:-BackgroundPurge");
    }
    env[kIcountOutEnv] = out_file_;
    return env;
  }

  const ValgrindInstall& valgrind_;
  IcountSettings settings_;
  std::string out_file_;
  std::string reason_;
};

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

/// "==1234== text" -> "text"; other lines unchanged.
std::string strip_pid_prefix(std::string_view line) {
  if (line.starts_with("==")) {
    const std::size_t end = line.find("==", 2);
    if (end != std::string_view::npos) line.remove_prefix(end + 2);
  }
  return trim(line);
}

std::string format_count(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3f}", v);
}

}  // namespace

std::optional<std::string> valgrind_missing() {
  if (forking::find_in_path("valgrind").empty())
    return "valgrind not found in PATH (Debian: apt-get install valgrind)";
  return std::nullopt;
}

std::optional<ValgrindInstall> find_valgrind(std::string& why) {
  static std::once_flag once;
  static std::optional<ValgrindInstall> found;
  static std::string reason;
  std::call_once(once, [] {
    if (auto missing = valgrind_missing()) {
      reason = *missing;
      return;
    }
    ValgrindInstall v;
    v.path = forking::find_in_path("valgrind");
    const std::string line = first_line_of(single_quoted(v.path) + " --version 2>/dev/null");
    if (!line.starts_with("valgrind-")) {
      reason = v.path + " --version did not say which Valgrind it is (got '" + line + "')";
      return;
    }
    v.version = line.substr(std::string_view("valgrind-").size());
    found = v;
  });
  if (!found) why = reason;
  return found;
}

std::string icount_spec(const IcountSettings& settings) {
  return fmt::format("icount:calls={};branch={}", settings.calls, settings.branch ? "true" : "false");
}

std::string icount_model_text(const ValgrindInstall& valgrind) {
  return fmt::format("Valgrind {} Callgrind; I1 {}, D1 {}, LL {}; cycles = {}", valgrind.version, kIcountI1,
                     kIcountD1, kIcountLL, kIcountCyclesFormula);
}

BenchmarkParams counted_plan(const BenchmarkParams& plan, const IcountSettings& settings) {
  BenchmarkParams counted = plan;
  counted.warmup.count = std::min(plan.warmup.count, kIcountMaxWarmups);
  counted.measurement.count = std::min(plan.measurement.count, kIcountMaxMeasurements);
  counted.warmup.time = counted.measurement.time = Nanos(0);
  counted.precision = 0;
  counted.precision_budget = Nanos(0);
  counted.subwindow = Nanos(0);
  counted.timeout = std::max<Nanos>(plan.timeout, std::chrono::duration_cast<Nanos>(10min));
  counted.profilers = {icount_spec(settings)};
  return counted;
}

std::string valgrind_reason(std::string_view text) {
  std::vector<std::string> kept;
  bool after_fatal = false;
  while (!text.empty() && kept.size() < kReasonLines) {
    const std::size_t nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const std::string line = strip_pid_prefix(raw);
    const bool vex = line.find("unhandled instruction bytes") != std::string::npos;
    const bool fatal = line.starts_with("valgrind:") || line.starts_with("Process terminating") ||
                       line.starts_with("Illegal opcode") || line.starts_with("Fatal error");
    if (vex || fatal) {
      if (std::find(kept.begin(), kept.end(), line) == kept.end()) kept.push_back(line);
      after_fatal = fatal;
    } else if (after_fatal && line.starts_with("at 0x")) {
      kept.push_back(line);  // where it happened
      after_fatal = false;
    }
  }
  std::string out;
  for (const auto& k : kept) out += (out.empty() ? "" : "; ") + k;
  return out;
}

std::vector<ScalarResult> count_under_callgrind(const BenchmarkParams& plan, const IcountSettings& settings,
                                                int fork_index) {
  std::string why;
  const auto valgrind = find_valgrind(why);
  if (!valgrind) throw ProfilerError("-prof icount: " + why);
  const ScratchDir dir;
  const BenchmarkParams counted = counted_plan(plan, settings);
  CallgrindWrapper wrapper(*valgrind, settings, dir.path() + "/callgrind.out");
  const ForkResult fork = forking::run_extra_fork(counted, fork_index, wrapper, 40);
  if (fork.failure) {
    if (wrapper.reason().empty())
      throw ProfilerError("-prof icount: the fork under Callgrind failed: " + fork.failure->message);
    throw ProfilerError("-prof icount: Valgrind cannot run this benchmark: " + wrapper.reason() +
                        " (the fork under Callgrind: " + fork.failure->message + ")");
  }
  if (fork.measurement.empty()) throw ProfilerError("-prof icount: the fork under Callgrind measured nothing");

  // Each label's mean over the measurement iterations (identical where the state is).
  std::vector<std::string> labels;
  std::map<std::string, std::vector<double>> values;
  for (const auto& it : fork.measurement)
    for (const auto& s : it.secondaries) {
      if (!s.label.starts_with("icount.")) continue;
      if (!values.count(s.label)) labels.push_back(s.label);
      values[s.label].push_back(s.value);
    }
  const auto mean = [&](const std::string& label) {
    const auto& v = values[label];
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
  };
  std::string run = fmt::format("{} calls x {} iteration{} per thread, after {} warmup iteration{}",
                                settings.calls, fork.measurement.size(), fork.measurement.size() == 1 ? "" : "s",
                                counted.warmup.count, counted.warmup.count == 1 ? "" : "s");
  std::string capped;
  if (plan.measurement.count > counted.measurement.count)
    capped = fmt::format("-i {} ignored beyond {}", plan.measurement.count, counted.measurement.count);
  if (plan.warmup.count > counted.warmup.count)
    capped += fmt::format("{}-wi {} beyond {}", capped.empty() ? "" : ", ", plan.warmup.count, counted.warmup.count);
  if (!capped.empty()) run += " (counts are deterministic: " + capped + ")";
  run += fmt::format("; empty-loop overhead subtracted: {} Ir, {} cycles per op",
                     format_count(mean("icount.overhead.norm")), format_count(mean("icount.overhead.cycles.norm")));
  const auto& ir = values["icount.ir.norm"];
  if (ir.size() > 1 && std::any_of(ir.begin(), ir.end(), [&](double v) { return v != ir.front(); })) {
    run += "; iterations differ in Ir/op:";
    for (double v : ir) run += " " + format_count(v);
  }
  const std::string note = icount_model_text(*valgrind) + " | " + run;
  std::vector<ScalarResult> out;
  for (const auto& label : labels) {
    if (label == "icount.overhead.cycles.norm") continue;  // in the note
    out.push_back({label, mean(label), "#/op", AggregationPolicy::average, note});
  }
  return out;
}

}  // namespace cmh::profilers

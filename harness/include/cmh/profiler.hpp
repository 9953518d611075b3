// SPDX-License-Identifier: MIT
// The profiler interface and the table profilers are registered in.
//
// Two kinds, as in JMH:
//  - InternalProfiler runs inside the fork, on the control thread: before_iteration
//    just before the workers start an iteration, after_iteration just after all of
//    them have stopped (also on the failure path). It returns named results.
//  - ExternalProfiler runs in the host around a fork: it may put a command prefix in
//    front of the fork (perf stat ...), and after the fork ends it gets the pid and
//    the captured output.
// Profilers never print; they return data. A user adds a profiler by linking a
// class and calling cmh::ProfilerRegistry::instance().add(...) (or CMH_PROFILER).
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cmh {

/// Thrown by a profiler factory for a bad option, with a one-line message.
struct ProfilerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "key=value;key2=value" as parsed from -prof name:key=value;key2=value; a bare "key"
/// (a flag) has an empty value.
using ProfilerOptions = std::map<std::string, std::string>;

class Profiler {
 public:
  virtual ~Profiler() = default;
  /// Called in the host on the benchmark's own instance once its last fork ended (the
  /// external instance), or after the -f 0 trial (the internal one): reports on all
  /// forks together, printed after the Result block and put into -rf html.
  virtual std::vector<ProfilerReport> benchmark_reports(const BenchmarkRunResult&) { return {}; }
};

class InternalProfiler : public virtual Profiler {
 public:
  virtual void before_iteration(const BenchmarkParams& bp, const IterationParams& ip) = 0;
  /// `result` has threads, ops and wall time filled in; the returned results are
  /// appended to its secondaries.
  virtual std::vector<ScalarResult> after_iteration(const BenchmarkParams& bp,
                                                    const IterationParams& ip,
                                                    const IterationResult& result) = 0;
};

class ExternalProfiler : public virtual Profiler {
 public:
  /// Words put in front of the fork's command line (e.g. {"perf", "stat", "-x,", "--"}).
  virtual std::vector<std::string> command_prefix(const BenchmarkParams&) { return {}; }
  /// Extra fork arguments (same vocabulary as -forkArgs, e.g. "-DNAME=value").
  virtual std::vector<std::string> extra_fork_args(const BenchmarkParams&) { return {}; }
  virtual void before_trial(const BenchmarkParams&) {}
  /// Called after the fork exited. `fork` holds what the fork reported.
  virtual std::vector<ScalarResult> after_trial(const BenchmarkParams& bp, const ForkResult& fork,
                                                long pid, std::string_view stdout_text,
                                                std::string_view stderr_text) = 0;
  /// false: the fork's stdout/stderr are not echoed (unless -v EXTRA).
  virtual bool allow_print_out() const { return true; }
  virtual bool allow_print_err() const { return true; }
};

struct ProfilerInfo {
  std::string name;                  ///< "alloc"
  std::vector<std::string> aliases;  ///< {"gc"}
  std::string description;           ///< one line, for -lprof
  bool internal = true;              ///< runs in the fork
  bool external = false;             ///< runs in the host around the fork
  /// nullopt when the profiler can run here, else the reason it cannot (-lprof).
  std::function<std::optional<std::string>()> unsupported_reason;
  /// Optional: nullopt, or what the profiler cannot measure here although it runs
  /// (e.g. "hardware events not supported here: ..."); -lprof and name:help show it.
  std::function<std::optional<std::string>()> limitation;
  /// Option help for -prof name:help.
  std::function<std::string()> help;
  /// Creates an instance; throws ProfilerError on an unknown or malformed option.
  std::function<std::unique_ptr<Profiler>(const ProfilerOptions&)> create;
};

class ProfilerRegistry {
 public:
  static ProfilerRegistry& instance();
  void add(ProfilerInfo info);
  /// By name or alias; nullptr when unknown.
  const ProfilerInfo* find(std::string_view name) const;
  /// Sorted by name.
  std::vector<const ProfilerInfo*> all() const;

 private:
  std::vector<ProfilerInfo> profilers_;
};

/// Splits a -prof argument "name:key=value;key2=value" into name and options.
/// Throws ProfilerError for a malformed option list. "name:help" gives {"help",""}.
std::pair<std::string, ProfilerOptions> parse_profiler_spec(std::string_view spec);

}  // namespace cmh

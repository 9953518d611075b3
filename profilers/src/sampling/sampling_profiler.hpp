// SPDX-License-Identifier: MIT
// SamplingProfiler: the part -prof perfasm and -prof flame share. One class plays
// three roles, told apart by where it runs:
//  - in a fork (internal): a WindowSampler enabled in before_iteration and disabled in
//    after_iteration of every measurement iteration, so exactly the measured
//    iterations are sampled on every thread (warmup and the harness between iterations
//    are not); the exact op count of those iterations is kept beside the samples. At
//    the end of the trial (the destructor) the samples are aggregated and written as
//    JSON to the file the host named in the fork's environment;
//  - in the host around forks (external): names that file per fork (extra_fork_args),
//    reads it after the fork (after_trial), and sums the forks; after the last one
//    benchmark_reports() hands the whole profile to the subclass's report();
//  - in the host for -f 0: the internal part, and report() on its own profile.
// Without permission to sample (perf_event_paranoid, a container's seccomp filter) the
// benchmark runs as usual and the report is one line saying why and what to change.
#pragma once

#include <cmh/profiler.hpp>
#include <cmh/profiler_options.hpp>

#include "sampling/alloc_sampler.hpp"
#include "sampling/profile.hpp"
#include "sampling/sampler.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace cmh::profilers::sampling {

struct SamplingSettings {
  std::string profiler;    ///< "perfasm": names the environment variable and messages
  SamplerConfig sampler;
  /// Why the first event is not the one the user would expect ("no PMU here, ..."); "" if asked for.
  std::string event_note;
  /// Sample allocations instead of an event (-prof flame:alloc): the bundled allocator's
  /// hook about every `alloc_every` bytes a thread allocates (alloc_sampler.hpp).
  bool allocations = false;
  std::uint64_t alloc_every = 512 * 1024;
};

/// The events to sample for `names` (events=/event=): each must be known and samplable
/// here (else reader.fail), except that "not permitted" is left for the fork to report in
/// one line. Empty `names`: cycles, or cpu-clock where there is no PMU, with
/// `settings.event_note` saying why.
void choose_sampled_events(const std::vector<std::string>& names, ProfilerOptionReader& reader,
                           SamplingSettings& settings);

/// What -lprof and name:help say about sampling here: nullopt when cycles can be sampled,
/// else "cycles cannot be sampled here (...): cpu-clock instead", or that sampling is not
/// permitted (and that a run goes on without it).
std::optional<std::string> sampling_limitation();

/// A file name for a benchmark and its parameters: "Group.name" or "Group.name-size=10-kind=a",
/// with anything but letters, digits and ._=- replaced by '_'.
std::string file_stem(const BenchmarkParams& bp);

class SamplingProfiler : public InternalProfiler, public ExternalProfiler {
 public:
  explicit SamplingProfiler(SamplingSettings settings);
  ~SamplingProfiler() override;

  void before_iteration(const BenchmarkParams& bp, const IterationParams& ip) override;
  std::vector<ScalarResult> after_iteration(const BenchmarkParams& bp, const IterationParams& ip,
                                            const IterationResult& result) override;

  std::vector<std::string> extra_fork_args(const BenchmarkParams& bp) override;
  std::vector<ScalarResult> after_trial(const BenchmarkParams& bp, const ForkResult& fork, long pid,
                                        std::string_view stdout_text, std::string_view stderr_text) override;

  std::vector<ProfilerReport> benchmark_reports(const BenchmarkRunResult& run) override;

  /// The environment variable that carries the sample file's path to a fork.
  static std::string environment_variable(const std::string& profiler);

 protected:
  /// The whole benchmark's profile (forks appended), to be reported; never called
  /// when sampling could not run.
  virtual std::vector<ProfilerReport> report(const Profile& profile, const BenchmarkRunResult& run) = 0;
  const SamplingSettings& settings() const { return settings_; }

 private:
  void finish_fork();
  void write_fork_file() const;

  SamplingSettings settings_;
  std::unique_ptr<WindowSampler> sampler_;
  std::unique_ptr<AllocationSampler> alloc_sampler_;
  Profile profile_;
  ForkProfile fork_;
  bool sampling_ = false;
  std::chrono::steady_clock::time_point window_start_;
  std::string fork_file_;  ///< in a fork: where the host wants the samples
  std::string temp_dir_;   ///< in the host: where forks write them
  std::string pending_;    ///< in the host: the current fork's file
  int forks_without_file_ = 0;
};

}  // namespace cmh::profilers::sampling

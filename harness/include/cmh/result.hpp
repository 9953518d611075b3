// SPDX-License-Identifier: MIT
// The results model: what a worker measures and the host collects.
//
// IterationResult is produced by the worker for each iteration (warmup and
// measurement), crosses the fork channel, and is collected by the host into
// ForkResult -> BenchmarkRunResult -> RunResults. Nothing here formats or
// aggregates: statistics live in harness/src/stats, output in report/ and
// formats/. Profilers return ScalarResults, which travel the same way.
#pragma once

#include <cmh/histogram.hpp>
#include <cmh/params.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace cmh {

/// How a metric is combined across threads, iterations and forks (JMH's AggregationPolicy).
enum class AggregationPolicy { average, sum, max, min };

/// "Average", "Sum", "Maximum", "Minimum" (as printed in JMH's result blocks).
std::string_view policy_label(AggregationPolicy p);

/// A named number with a unit: a profiler metric, an aux counter, a group member's score.
struct ScalarResult {
  std::string label;  ///< "alloc.rate.norm" (no benchmark prefix, no middle dot)
  double value = 0;
  std::string unit;   ///< "B/op", "MB/sec", "counts", "ms", ...
  AggregationPolicy policy = AggregationPolicy::average;
  /// Optional text qualifying the value, e.g. numa.enabled = 0 with "off: only one NUMA
  /// node". Not aggregated (the last non-empty note wins); for the report and result
  /// files to show beside the value. `{}` keeps 4-field aggregate init warning-free.
  std::string note{};
};

/// One worker thread's share of one iteration.
struct ThreadMeasurement {
  int subgroup_index = 0;      ///< which @Group member the thread ran (0 otherwise)
  std::uint64_t measured_ops = 0;  ///< ops inside the timed window, after opi/batch adjustment
  std::int64_t duration_ns = 0;    ///< the thread's own timed window
  /// The thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over its timed window; -1 if not
  /// measured. 0 is a reading: a coarse thread clock (an emulated guest's, ticking every few
  /// ms) does not advance over a short window.
  std::int64_t cpu_ns = -1;
  /// The timed window's length on the steady clock (duration_ns is the sum of call
  /// times when invocation fixtures exist; the CPU/wall ratio needs the window).
  std::int64_t window_ns = 0;
  /// Context switches of the thread over its timed window (getrusage(RUSAGE_THREAD)):
  /// involuntary ones mean the scheduler took the CPU away; voluntary ones mean the
  /// body blocked (sleep, lock, I/O). -1 if not measured.
  std::int64_t involuntary_switches = -1;
  std::int64_t voluntary_switches = -1;
  /// Time the thread spent runnable but waiting for a CPU over its timed window (the
  /// run-queue delay of /proc/thread-self/schedstat); -1 if not measured.
  std::int64_t run_delay_ns = -1;
};

/// The host around one iteration, read by the control thread outside the timed window.
struct HostLoad {
  /// Share of all CPUs' time stolen by the hypervisor during the iteration (/proc/stat);
  /// NaN where unavailable.
  double steal_fraction = std::numeric_limits<double>::quiet_NaN();
  /// The 1-minute load average at the end of the iteration (/proc/loadavg); NaN if unavailable.
  double load_average = std::numeric_limits<double>::quiet_NaN();
  /// Share of the process's allowed CPUs' time that other processes (and the hypervisor)
  /// used during the iteration: the CPUs' busy ticks (/proc/stat) minus this process's
  /// CPU time (CLOCK_PROCESS_CPUTIME_ID, exited threads included). NaN where unknown,
  /// also when the iteration spanned fewer than kMinShareTicks ticks per CPU.
  double others_share = std::numeric_limits<double>::quiet_NaN();
  /// Share of the same CPUs' time that was idle (idle and iowait ticks); NaN where unknown.
  double idle_share = std::numeric_limits<double>::quiet_NaN();
};

struct IterationResult {
  IterationKind kind = IterationKind::measurement;
  int index = 1;  ///< 1-based, within its kind
  /// The primary score of this iteration in the plan's unit, aggregated over threads
  /// by JMH's rules (see primary_iteration_score below).
  ScalarResult primary;
  std::vector<ThreadMeasurement> threads;
  /// Every call made during the iteration by all threads, ramp-up and ramp-down included,
  /// multiplied by ops-per-invocation: the normaliser of per-op profiler metrics.
  std::uint64_t all_ops = 0;
  std::uint64_t measured_ops = 0;  ///< sum over threads
  std::int64_t wall_ns = 0;        ///< from the control thread's start signal to the last thread stopping
  /// Sample-time and single-shot modes: per-op nanoseconds, all threads joined.
  std::optional<SampleHistogram> samples;
  /// Profiler metrics, aux counters and @Group member scores.
  std::vector<ScalarResult> secondaries;
  bool timed_out = false;
  HostLoad host;
  /// -subwin: the median of the iteration's sub-windows, per op, as a score in the
  /// primary's unit and shape (per-thread medians combined like the primary); NaN if off.
  double subwindow_median = std::numeric_limits<double>::quiet_NaN();
  std::int64_t subwindows = 0;  ///< sub-windows recorded over all threads
  /// -subwin: the mean of the clean sub-windows (their time over their calls):
  /// those in which, and in the window before which, no worker was switched out, or was
  /// and its run-queue wait is taken out (detail/subwindow_log.hpp); per op, combined over
  /// threads like the primary; NaN when a
  /// thread had fewer than detail::kMinCleanSubwindows of them. A mean of thousands of
  /// windows, not their median: a median of windows timed in whole nanoseconds over the
  /// same number of calls repeats one value exactly, and forks would agree to the last digit.
  double subwindow_clean_mean = std::numeric_limits<double>::quiet_NaN();
  /// -subwin: the median of the same clean sub-windows, combined the same way (NaN when the
  /// mean is). How far the mean sits from it is the share of the clean time spent in stalls
  /// no evidence sees (timer ticks, hypervisor exits): stats/robust_estimate.hpp.
  double subwindow_clean_median = std::numeric_limits<double>::quiet_NaN();
  std::int64_t subwindows_rejected = 0;  ///< of `subwindows`, the ones left out
  /// Of the clean ones, those the thread was switched out in, kept with the time it waited
  /// for a CPU taken out (detail/subwindow_log.hpp).
  std::int64_t subwindows_corrected = 0;
  std::int64_t subwindow_length_ns = 0;  ///< the target length used (-subwin auto: as resolved)
  std::uint8_t subwindow_evidence = 0;   ///< detail::WindowEvidence: 0 none, 1 rseq, 2 getrusage
  /// Text the benchmark attached to the iteration (Google Benchmark's SetLabel); empty if none.
  std::string label;
};

enum class FailureKind {
  exception,     ///< a C++ exception escaped the benchmark or a fixture
  signal,        ///< the fork died of a signal
  exited_early,  ///< the fork exited before the harness was done with it
  timeout,       ///< an iteration ran past -to
  stray_threads, ///< the fork finished but did not exit
  out_of_memory, ///< the allocator's heap limit, or the OOM killer
  protocol,      ///< malformed or truncated frames from the fork
  spawn,         ///< the fork could not be started
  interrupted,   ///< the host was interrupted (SIGINT/SIGTERM)
  other,
  /// The fork did not reach its handshake within its start-up bound (-forkStartTimeout).
  /// Decided by the host only: after `other`, so the kinds a fork sends keep their numbers.
  startup_timeout,
};

struct Failure {
  FailureKind kind = FailureKind::other;
  std::string message;         ///< one line, e.g. "forked process failed: signal 11 (Segmentation fault)"
  std::string exception_type;  ///< demangled type name, for FailureKind::exception
  int exit_code = 0;
  int signal = 0;
  std::vector<std::string> stdout_tail;  ///< last lines of the fork's output
  std::vector<std::string> stderr_tail;
  /// Every thread's stack, trimmed, taken by a debugger before the host stopped the fork
  /// (a fork hung at start-up, when eu-stack or gdb could attach); else empty.
  std::vector<std::string> stack{};  // "{}": initialisers that list the fields before it stay warning-free
};

/// What the bundled allocator decided in the process that ran a trial (the fork, or the
/// host for -f 0), as that process reported it at start-up. Fork arguments such as
/// --membind or -XX:-UseNUMA make forks differ from the host and from each other.
struct AllocatorState {
  bool known = false;        ///< false when the fork never reported (it died first)
  std::string numa_mode;     ///< "on" / "off"
  std::string numa_reason;   ///< the allocator's sentence: why off, or how on
  std::string numa_nodes;    ///< nodes the heap uses ("0-1"); "" when NUMA is off
  std::string options;       ///< the options in effect, CMH_ALLOC spelling
  bool operator==(const AllocatorState&) const = default;
};

/// Where one worker thread of a fork ran under -pin.
struct ThreadPinning {
  int thread = 0;  ///< thread index
  int cpu = -1;
  int core = -1;     ///< the CPU's core_id (unique within its package)
  int package = -1;  ///< -1 where sysfs does not say
  int node = -1;     ///< NUMA node; -1 where the kernel shows none
  std::string core_type;  ///< "P" or "E" on hybrid CPUs, else ""
  bool operator==(const ThreadPinning&) const = default;
};

/// What -pin did in one fork (or the -f 0 trial); mode "" when it pinned nothing.
struct Pinning {
  std::string mode;                    ///< "cpus", "cores" or the CPU list given
  std::vector<ThreadPinning> threads;  ///< by thread index
  std::string allowed_cpus;            ///< the process's affinity mask, "0-7"
  std::string control_cpus;            ///< where the control thread (and its profilers) ran
  std::vector<std::string> notes;      ///< e.g. no CPU left for the control thread
  bool operator==(const Pinning&) const = default;
};

/// One fork (or the in-process trial of -f 0).
struct ForkResult {
  int index = 1;             ///< 1-based among forks of its kind
  bool warmup_fork = false;  ///< results of warmup forks are printed, never aggregated
  long pid = 0;
  std::vector<IterationResult> warmup;
  std::vector<IterationResult> measurement;
  /// Results of wrapping (external) profilers for the whole fork.
  std::vector<ScalarResult> trial_secondaries;
  std::optional<Failure> failure;  ///< set when the fork did not complete
  AllocatorState allocator;        ///< the fork's own allocator decisions
  Pinning pinning;                 ///< where its worker threads ran (-pin)
};

/// -prec: the precision reached and what stopped the run from adding iterations or forks.
struct PrecisionOutcome {
  double target = 0;   ///< share of the score, 0.02 for 2 %
  double reached = std::numeric_limits<double>::quiet_NaN();
  std::string stopped_by;  ///< "target", "iterationCap", "forkCap", "timeBudget" or "failure"
  int forks = 0;           ///< measurement forks run (1 for -f 0)
  int iterations = 0;      ///< measurement iterations, all forks
  int planned_iterations = 0;  ///< -i per fork
  bool robust = false;         ///< -prec X:robust: `reached` is the robust interval's
  /// -prec X:robust: the SD of the forks' robust estimates over the estimate; NaN below 2 forks.
  double drift = std::numeric_limits<double>::quiet_NaN();
};

/// A profiler's report on a whole benchmark, all its forks together (-prof perfasm's hot
/// code, -prof flame's files): text for the console, printed after the Result block as
/// JMH prints its text results, and a section for -rf html.
struct ProfilerReport {
  std::string label;   ///< "asm": the text is printed under Secondary result "<benchmark>:asm"
  std::string text;    ///< the console text (lines, '\n'-terminated), or empty
  std::string notice;  ///< one line printed as is (e.g. why the profiler could not run), or empty
  std::string html;    ///< an HTML fragment for the report (self-contained, nothing fetched), or empty
};

struct BenchmarkRunResult {
  BenchmarkParams params;
  std::vector<ForkResult> forks;  ///< measurement forks only
  std::optional<Failure> failure; ///< the first failure of any fork, if one failed
  std::optional<PrecisionOutcome> precision;  ///< set by -prec
  std::vector<ProfilerReport> reports;  ///< from the host's profiler instances, after the last fork
  bool failed() const { return failure.has_value(); }
};

struct RunResults {
  std::vector<BenchmarkRunResult> benchmarks;
  bool complete = false;  ///< false while running and when interrupted
  std::vector<std::string> planned;  ///< full labels of every planned benchmark, for "not run" reporting
};

/// JMH's per-iteration primary score from the per-thread measurements:
/// throughput = sum over threads of ops/time; average time = mean over threads of time/op;
/// single shot = mean over threads of time/op. Sample-time scores come from the histogram.
inline double primary_iteration_score(BenchmarkMode mode, TimeUnit unit,
                                      const std::vector<ThreadMeasurement>& threads) {
  const double per_unit = nanos_per(unit);
  if (threads.empty()) return 0.0;
  double acc = 0;
  for (const auto& t : threads) {
    const double ops = static_cast<double>(t.measured_ops);
    const double ns = static_cast<double>(t.duration_ns);
    if (mode == BenchmarkMode::throughput) {
      acc += ns > 0 ? ops * per_unit / ns : 0.0;
    } else {
      acc += ops > 0 ? ns / (ops * per_unit) : 0.0;
    }
  }
  return mode == BenchmarkMode::throughput ? acc : acc / static_cast<double>(threads.size());
}

/// "ops/s", "ns/op", ... for a mode and unit.
std::string primary_unit(BenchmarkMode mode, TimeUnit unit);

}  // namespace cmh

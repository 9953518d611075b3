// SPDX-License-Identifier: MIT
// The host's run loop (see run_loop.hpp). Result files are rewritten after every
// benchmark (each write is atomic), so a host killed even with -9 leaves files
// holding every benchmark completed so far; RunResults::complete stays false
// until the whole plan has run.
#include "host/run_loop.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <set>

#include "engine/trial.hpp"
#include "fork/fork_runner.hpp"
#include "host/bulk_warmup.hpp"
#include "host/progress.hpp"
#include "host/signals.hpp"
#include "host/trial_observers.hpp"
#include "model/allocator_state.hpp"
#include "model/interrupt.hpp"
#include "profiling/profiler_factory.hpp"
#include "report/score_format.hpp"
#include "report/summary_table.hpp"
#include "stats/aggregate.hpp"
#include "stats/nan.hpp"
#include "stats/precision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cmh::host {

namespace {

using Clock = std::chrono::steady_clock;

/// -prec adds forks up to this many (or -f, if more).
constexpr int kPrecisionForkCap = 20;

Failure interrupted_failure(int sig) {
  Failure f;
  f.kind = FailureKind::interrupted;
  f.signal = sig;
  const char* name = ::strsignal(sig);
  f.message = "interrupted by signal " + std::to_string(sig) + " (" + (name ? name : "unknown") +
              "): the run stopped before this benchmark completed";
  return f;
}

using HostProfilers = profiling::ProfilerSet;

HostProfilers make_profilers(const BenchmarkParams& bp, bool in_process) {
  return profiling::create_profilers(bp.profilers, in_process ? profiling::ProfilerSide::in_process
                                                              : profiling::ProfilerSide::around_fork);
}

/// The profilers' reports on the whole benchmark (Profiler::benchmark_reports).
void collect_reports(HostProfilers& profilers, BenchmarkRunResult& run) {
  for (auto& p : profilers.owned) {
    try {
      for (auto& r : p->benchmark_reports(run)) run.reports.push_back(std::move(r));
    } catch (const std::exception& e) {
      run.reports.push_back({"", "", std::string("a profiler's report failed: ") + e.what(), ""});
    }
  }
}

class RunLoop {
 public:
  explicit RunLoop(RunSetup& setup)
      : setup_(setup), cl_(*setup.command_line), output_(*setup.output), progress_(plan_params(setup)) {
    for (auto& plan : setup_.plans) {
      results_.planned.push_back(report::benchmark_label(plan.params));
      if (cl_.precision) {  // each fork's share of -maxTime, for its own iterations (-f 0: all of it)
        plan.params.precision = *cl_.precision;
        plan.params.precision_budget = max_time() / std::max(1, plan.params.forks);
        plan.params.precision_robust = cl_.precision_robust;
        // The robust interval is clustered by fork: more iterations in a fork cannot narrow
        // it, more forks can. So forks keep to -i and the budget goes to added forks.
        if (cl_.precision_robust && plan.params.forks > 0) plan.params.precision_budget = Nanos::zero();
        // :robust targets the clean sub-window estimate: sub-windows on unless chosen.
        if (cl_.precision_robust && plan.params.subwindow.count() == 0) plan.params.subwindow = kSubwindowAuto;
      }
    }
    write_failed_.assign(setup_.writers.size(), false);
  }

  int run() {
    start_ = Clock::now();
    bool stopped = false;
    for (const auto& plan : setup_.plans) {
      if (interrupting_signal()) {
        // Nothing recorded yet: the benchmark that was next says the run stopped
        // there, so that no result file is an empty list with no marker.
        if (results_.benchmarks.empty()) {
          BenchmarkRunResult stopped_here;
          stopped_here.params = plan.params;
          stopped_here.failure = interrupted_failure(interrupting_signal());
          results_.benchmarks.push_back(std::move(stopped_here));
        }
        break;
      }
      BenchmarkRunResult run = run_benchmark(plan);
      const bool failed = run.failed();
      output_.benchmark_end(run);
      results_.benchmarks.push_back(std::move(run));
      write_results(false);
      if (failed) any_failed_ = true;
      if (failed && cl_.fail_on_error && !interrupting_signal()) {
        output_.println("# Benchmark failed, and fail on error (-foe true) was requested: stopping the run.");
        stopped = true;
        break;
      }
    }
    results_.complete = !stopped && !interrupting_signal();
    return finish();
  }

 private:
  static std::vector<const BenchmarkParams*> plan_params(const RunSetup& setup) {
    std::vector<const BenchmarkParams*> out;
    for (const auto& plan : setup.plans) out.push_back(&plan.params);
    return out;
  }

  BenchmarkRunResult run_benchmark(const PlannedRun& plan) {
    const BenchmarkParams& bp = plan.params;
    BenchmarkRunResult run;
    run.params = bp;
    benchmark_start_ = Clock::now();
    output_.benchmark_header(bp, {});
    bulk_warmups_ = plan.bulk_warmups.get();
    if (bulk_warmups_ != nullptr && !bulk_warmups_->empty())
      output_.println(fmt::format("# Bulk warmup: {} benchmark{} warm{} up first{} (-wm {}{})", bulk_warmups_->size(),
                                  bulk_warmups_->size() == 1 ? "" : "s", bulk_warmups_->size() == 1 ? "s" : "",
                                  bp.forks == 0 ? ", once in this process" : " in each fork",
                                  warmup_mode_name(cl_.warmup_mode), cl_.warmup_includes.empty() ? "" : ", -wmb"));
    try {
      if (bp.forks == 0) {
        run_in_process(plan, run);
        if (cl_.precision) report_precision(run, std::nullopt);
      } else {
        run_forked(bp, run);
      }
    } catch (const std::exception& e) {
      // Profiler construction failing after validation, or the harness itself.
      Failure f;
      f.kind = FailureKind::other;
      f.message = std::string("the host could not run the benchmark: ") + e.what();
      output_.fork_failure(bp, f);
      run.failure = f;
    }
    if (!run.failure && interrupting_signal()) run.failure = interrupted_failure(interrupting_signal());
    return run;
  }

  void run_forked(const BenchmarkParams& bp, BenchmarkRunResult& run) {
    HostProfilers profilers = make_profilers(bp, false);
    bool consumed = false;
    for (ExternalProfiler* p : profilers.external) consumed = consumed || !p->allow_print_out() || !p->allow_print_err();
    if (consumed && cl_.verbosity != report::Verbosity::extra)
      output_.println("# Profilers consume stdout and stderr from the fork, use -v EXTRA to copy to console");
    for (const bool warmup : {true, false}) {
      const int count = warmup ? bp.warmup_forks : bp.forks;
      for (int i = 1; i <= count; ++i)
        if (!run_one_fork(bp, profilers, i, count, warmup, run)) return collect_reports(profilers, run);
    }
    if (cl_.precision) add_forks_for_precision(bp, profilers, run);
    collect_reports(profilers, run);
  }

  Nanos max_time() const { return cl_.max_time.value_or(std::chrono::seconds(60)); }

  /// -prec: more forks, one at a time, until the score's error is at most the target
  /// share of the score, the fork cap is reached or the time budget runs out.
  void add_forks_for_precision(const BenchmarkParams& bp, HostProfilers& profilers, BenchmarkRunResult& run) {
    const double target = *cl_.precision;
    const auto budget = max_time();
    const int cap = std::max(bp.forks, kPrecisionForkCap);
    const auto started = benchmark_start_;
    int forks = static_cast<int>(run.forks.size());
    std::optional<std::string> why;  // the host's reason, in JSON words
    for (;;) {
      if (run.failed()) { why = "failure"; break; }
      const double reached = precision_reached(run);
      if (!std::isnan(reached) && reached <= target) { why = "target"; break; }
      if (forks >= cap) { why = "forkCap"; break; }
      // Stop early rather than overrun: the next fork would take about as long as the last.
      const auto elapsed = Clock::now() - started;
      const auto per_fork = forks > 0 ? elapsed / forks : Clock::duration::zero();
      if (elapsed + per_fork > budget) { why = "timeBudget"; break; }
      ++forks;
      // An added fork may grow its iterations into what is left of the budget, no further.
      BenchmarkParams added = bp;
      added.precision_budget = std::min<Nanos>(bp.precision_budget,
                                               std::chrono::duration_cast<Nanos>(budget - elapsed));
      if (!run_one_fork(added, profilers, forks, forks, false, run)) { why = "failure"; break; }
    }
    report_precision(run, why);
  }

  static double precision_reached(const BenchmarkRunResult& run) {
    const auto agg = stats::aggregate(run);
    // The robust interval's statistical part: its stall margin does not narrow with forks.
    if (run.params.precision_robust) return agg.robust.available ? agg.robust.relative_statistical_half_width() : kNaN;
    return agg.has_results() && agg.primary.score != 0 ? agg.primary.error / std::fabs(agg.primary.score) : kNaN;
  }

  /// The `# Precision:` line and run.precision. `host_why` is the fork loop's reason
  /// (forked runs); for -f 0 the trial's own stopping rule, applied again, names it.
  void report_precision(BenchmarkRunResult& run, std::optional<std::string> host_why) {
    const BenchmarkParams& bp = run.params;
    PrecisionOutcome out;
    out.target = *cl_.precision;
    out.reached = precision_reached(run);
    out.forks = static_cast<int>(run.forks.size());
    out.planned_iterations = bp.measurement.count;
    stats::IterationStop last_fork = stats::IterationStop::keep_going;
    for (const auto& fork : run.forks) {
      out.iterations += static_cast<int>(fork.measurement.size());
      std::vector<double> scores;
      for (const auto& it : fork.measurement) scores.push_back(it.primary.value);
      last_fork = stats::why_fork_stopped(scores, out.target, bp.measurement.count);
    }
    if (host_why) {
      out.stopped_by = *host_why;
    } else {
      out.stopped_by = run.failed() ? "failure" : stats::json_name(last_fork);
    }
    std::string because;
    if (out.stopped_by == "target") because = "the target was reached";
    else if (out.stopped_by == "iterationCap")
      because = fmt::format("the iteration cap ({} per fork) was reached", stats::iteration_cap(bp.measurement.count));
    else if (out.stopped_by == "forkCap")
      because = fmt::format("the fork cap ({}) was reached", std::max(bp.forks, kPrecisionForkCap));
    else if (out.stopped_by == "timeBudget")
      because = "the time budget (-maxTime " + report::format_time(max_time()) + ") ran out";
    else because = "a fork failed or the run was interrupted";
    std::string drift;
    if (bp.precision_robust) {
      out.robust = true;
      const auto agg = stats::aggregate(run);
      if (agg.robust.available && agg.robust.by_fork) out.drift = agg.robust.cluster_spread;
      if (!std::isnan(out.drift) && out.drift > out.target)
        drift = fmt::format(". The forks' robust estimates differ by {:.2f} % (SD), more than the target: the "
                            "machine drifts between forks, and a run at another time may differ by that much",
                            out.drift * 100);
      if (agg.robust.available && agg.robust.stall_share > 0)
        drift += fmt::format(". The interval's stall margin (±{:.2f} %) is on top of this and does not narrow "
                             "with forks",
                             agg.robust.stall_share * 100);
    }
    output_.println(fmt::format(
        "# Precision: target ±{:.2f} %{}, reached ±{} with {} measurement iteration{} ({} planned per fork) {}; "
        "stopped because {}{}",
        out.target * 100, out.robust ? fmt::format(" of the robust estimate ({:.0f} %)", stats::kRobustConfidence * 100) : "",
        std::isnan(out.reached) ? std::string("n/a") : fmt::format("{:.2f} %", out.reached * 100),
        out.iterations, out.iterations == 1 ? "" : "s", out.planned_iterations,
        bp.forks == 0 ? std::string("in the host process (-f 0)")
                      : fmt::format("in {} fork{}", out.forks, out.forks == 1 ? "" : "s"),
        because, drift));
    run.precision = out;
  }

  /// One fork of `bp`; false when the benchmark must stop (a failure, a signal).
  bool run_one_fork(const BenchmarkParams& bp, HostProfilers& profilers, int i, int count, bool warmup,
                    BenchmarkRunResult& run) {
    if (interrupting_signal()) return false;
    output_.run_progress(progress_.fraction_done(), progress_.eta());
    output_.fork_start(i, count, warmup);
    forking::ForkRequest request;
    request.plan = &bp;
    request.index = i;
    request.warmup_fork = warmup;
    request.executable = setup_.executable;
    request.external_profilers = profilers.external;
    request.echo_all_output = cl_.verbosity == report::Verbosity::extra;
    request.bulk_warmups = bulk_warmups_;
    request.fail_on_error = cl_.fail_on_error;
    request.start_timeout = cl_.fork_start_timeout;
    request.host_startup = setup_.host_startup;
    ForkReportObserver observer(output_, bp);
    ForkResult fork = forking::run_fork(request, observer);
    progress_.fork_done(bp);
    if (fork.failure && fork.failure->kind == FailureKind::interrupted && interrupting_signal()) {
      Failure why = interrupted_failure(interrupting_signal());
      why.stdout_tail = std::move(fork.failure->stdout_tail);
      why.stderr_tail = std::move(fork.failure->stderr_tail);
      fork.failure = std::move(why);
    }
    if (fork.failure && !observer.failure_shown()) output_.fork_failure(bp, *fork.failure);
    const std::optional<Failure> failure = fork.failure;
    // Warmup forks are shown, never kept (JMH drops their results).
    if (!warmup) run.forks.push_back(std::move(fork));
    if (failure) {
      run.failure = failure;
      return false;  // the next fork would most likely fail the same way
    }
    return true;
  }

  void run_in_process(const PlannedRun& plan, BenchmarkRunResult& run) {
    const BenchmarkParams& bp = plan.params;
    output_.run_progress(progress_.fraction_done(), progress_.eta());
    output_.fork_start(0, 0, false);
    if (auto failure = bulk_warmup_in_process()) {  // -foe true and a bulk warmup failed
      run.failure = failure;
      return;
    }
    HostProfilers profilers = make_profilers(bp, true);
    // A profiler with a part in the fork runs that part in-process; only pure wrappers do not run.
    if (!profilers.other_side_only.empty()) {
      std::string names;
      for (const auto& n : profilers.other_side_only) names += (names.empty() ? "" : ", ") + n;
      output_.println("# *** WARNING: profilers that wrap a fork (" + names + ") do not run in the host process ***");
    }
    ForkResult fork;
    fork.index = 1;
    fork.pid = static_cast<long>(::getpid());
    fork.allocator = model::detect_allocator_state();  // the trial runs on the host's allocator
    InProcessObserver observer(output_, bp, fork, [this, &run, &fork] { end_if_interrupted(run, fork); });
    std::optional<Failure> failure;
    ExitWatch watch(*this, run, fork);
    interrupt::set_in_process(true);
    try {
      failure = engine::run_trial(*plan.definition, bp, profilers.internal, observer);
    } catch (const std::exception& e) {
      Failure f;
      f.kind = FailureKind::other;
      f.message = std::string("the trial failed in the host: ") + e.what();
      failure = f;
    }
    interrupt::set_in_process(false);
    progress_.fork_done(bp);
    fork.failure = failure;
    if (failure && !observer.failure_shown()) output_.fork_failure(bp, *failure);
    run.forks.push_back(std::move(fork));
    run.failure = failure;
    collect_reports(profilers, run);
  }

  /// -wm BULK / -wmb with -f 0: the bulk warmups run once, before the first benchmark
  /// that runs in this process (JMH's embedded plan). A failure is shown and the run goes
  /// on; under -foe it is returned, and fails the benchmark.
  std::optional<Failure> bulk_warmup_in_process() {
    if (bulk_warmups_ == nullptr || in_process_warmed_up_) return std::nullopt;
    in_process_warmed_up_ = true;
    const int count = static_cast<int>(bulk_warmups_->size());
    for (int i = 0; i < count; ++i) {
      const BenchmarkParams& warm = (*bulk_warmups_)[i];
      output_.println(host::bulk_warmup_line(&warm, i, count, warm));
      std::optional<Failure> failure;
      BulkWarmupObserver observer(output_, warm);
      try {
        const BenchmarkDefinition* def = find_benchmark(warm.benchmark);
        if (def == nullptr) throw std::runtime_error("benchmark '" + warm.benchmark + "' is not in this executable");
        HostProfilers profilers = make_profilers(warm, true);
        interrupt::set_in_process(true);
        failure = engine::run_trial(*def, warm, profilers.internal, observer);
        interrupt::set_in_process(false);
      } catch (const std::exception& e) {
        interrupt::set_in_process(false);
        Failure f;
        f.kind = FailureKind::other;
        f.message = std::string("the bulk warmup failed in the host: ") + e.what();
        output_.iteration_failure(warm, f);
        failure = f;
      }
      if (failure && cl_.fail_on_error) {
        failure->message = "the bulk warmup of " + warm.benchmark + " failed (-foe true): " + failure->message;
        return failure;
      }
    }
    return std::nullopt;
  }

  static const char* warmup_mode_name(cli::WarmupMode mode) {
    switch (mode) {
      case cli::WarmupMode::bulk: return "BULK";
      case cli::WarmupMode::bulk_indi: return "BULK_INDI";
      case cli::WarmupMode::indi: break;
    }
    return "INDI";
  }

  /// While an in-process trial runs, exit() from the benchmark (any thread) would
  /// end the host with the benchmark's status and no summary or result file. An
  /// on_exit handler, registered once, ends the run here instead: the benchmark is
  /// failed, the files are written, and the status is 2. (_exit() and quick_exit()
  /// run no handlers: those end the process as they say.)
  class ExitWatch {
   public:
    ExitWatch(RunLoop& loop, BenchmarkRunResult& run, ForkResult& fork) : loop_(loop), run_(run), fork_(fork) {
      static const bool registered = ::on_exit(&ExitWatch::on_exit_called, nullptr) == 0;
      (void)registered;
      current_.store(this);
    }
    ~ExitWatch() { current_.store(nullptr); }
    ExitWatch(const ExitWatch&) = delete;
    ExitWatch& operator=(const ExitWatch&) = delete;

   private:
    static void on_exit_called(int status, void*) {
      if (ExitWatch* w = current_.exchange(nullptr)) w->loop_.end_on_benchmark_exit(w->run_, w->fork_, status);
    }
    static inline std::atomic<ExitWatch*> current_{nullptr};
    RunLoop& loop_;
    BenchmarkRunResult& run_;
    ForkResult& fork_;
  };

  void end_on_benchmark_exit(BenchmarkRunResult& current, ForkResult& fork, int status) {
    Failure f;
    f.kind = FailureKind::exited_early;
    f.exit_code = status;
    f.message = "the benchmark called exit(" + std::to_string(status) +
                ") in the host process (-f 0), which ended the run there";
    fork.failure = f;
    current.forks.push_back(fork);
    current.failure = f;
    output_.fork_failure(current.params, f);
    output_.benchmark_end(current);
    results_.benchmarks.push_back(current);
    results_.complete = false;
    const int code = finish();
    std::fflush(nullptr);
    ::_exit(code == 0 ? 2 : code);
  }

  /// In-process runs cannot be stopped from outside: a signal is acted on between
  /// iterations, where the run ends here with what has completed.
  void end_if_interrupted(BenchmarkRunResult& current, ForkResult& fork) {
    const int sig = interrupting_signal();
    if (!sig) return;
    fork.failure = interrupted_failure(sig);
    current.forks.push_back(fork);
    current.failure = fork.failure;
    output_.fork_failure(current.params, *fork.failure);
    output_.benchmark_end(current);
    results_.benchmarks.push_back(current);
    results_.complete = false;
    const int status = finish();
    std::fflush(nullptr);
    // The engine's threads are parked inside run_trial: leave without unwinding it.
    ::_exit(status);
  }

  /// After each benchmark (`final` false) files are replaced atomically; stream
  /// targets (/dev/stdout, FIFOs) are written once, at the end.
  void write_results(bool final) {
    for (std::size_t i = 0; i < setup_.writers.size(); ++i) {
      if (!final && setup_.writers[i]->in_place()) continue;
      try {
        setup_.writers[i]->write(results_, setup_.context);
      } catch (const std::exception& e) {
        any_write_failed_ = true;
        if (!write_failed_[i])
          output_.println(std::string("ERROR: ") + e.what());
        write_failed_[i] = true;
      }
    }
  }

  int finish() {
    const auto total = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_);
    output_.run_end(results_, total);
    write_results(true);
    for (std::size_t i = 0; i < setup_.writers.size(); ++i)
      if (!write_failed_[i]) output_.println("Benchmark result is saved to " + setup_.writers[i]->path());
    if (const int sig = interrupting_signal()) return 128 + sig;
    for (const auto& b : results_.benchmarks) any_failed_ = any_failed_ || b.failed();
    return any_failed_ || any_write_failed_ || !results_.complete ? 2 : 0;
  }

  RunSetup& setup_;
  const cli::CommandLine& cl_;
  report::OutputFormat& output_;
  RunProgress progress_;
  RunResults results_;
  std::vector<bool> write_failed_;
  bool any_failed_ = false;
  bool any_write_failed_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point benchmark_start_ = Clock::now();
  const std::vector<BenchmarkParams>* bulk_warmups_ = nullptr;  ///< the current plan's (-wm BULK, -wmb)
  bool in_process_warmed_up_ = false;  ///< -f 0 ran the bulk warmups already
};

}  // namespace

int run_benchmarks(RunSetup& setup) {
  RunLoop loop(setup);
  return loop.run();
}

}  // namespace cmh::host

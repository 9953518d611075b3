// SPDX-License-Identifier: MIT
// The host's observers: they turn what a trial reports (from a fork's frames,
// or from the engine directly for -f 0) into report calls, and remember whether
// a failure was already shown on an iteration line.
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <functional>
#include <string>

#include "fork/fork_runner.hpp"
#include "report/output_format.hpp"

namespace cmh::host {

/// For forks: everything the fork reports goes to the report as it arrives.
class ForkReportObserver final : public forking::ForkObserver {
 public:
  ForkReportObserver(report::OutputFormat& output, const BenchmarkParams& bp) : output_(output), bp_(bp), shown_(&bp) {}

  void iteration_started(const IterationParams& ip, int index) override;
  void iteration_finished(const IterationResult& result) override;
  void iteration_failed(const IterationParams& ip, int index, const Failure& failure) override;
  void fork_output(bool is_stderr, std::string_view line) override;
  void verbose(std::string_view line) override;
  void fork_allocator(const AllocatorState& state) override;
  void bulk_warmup(const BenchmarkParams* plan, int index, int count) override;

  /// A failure of the fork's own benchmark was shown (a bulk warmup's does not count).
  bool failure_shown() const { return failure_shown_; }

 private:
  report::OutputFormat& output_;
  const BenchmarkParams& bp_;
  const BenchmarkParams* shown_;  ///< the plan whose iterations are being shown: bp_ or a bulk warmup's
  bool failure_shown_ = false;
};

/// For -f 0 under -wm BULK / -wmb: shows one bulk warmup's iterations and failure.
class BulkWarmupObserver final : public engine::TrialObserver {
 public:
  BulkWarmupObserver(report::OutputFormat& output, const BenchmarkParams& plan) : output_(output), plan_(plan) {}

  void iteration_started(const IterationParams& ip, int index) override;
  void iteration_finished(const IterationResult& result) override;
  void iteration_failed(const IterationParams& ip, int index, const Failure& failure) override;

 private:
  report::OutputFormat& output_;
  const BenchmarkParams& plan_;
};

/// "# Bulk warmup 2 of 5: Group.name [avgt]" (1-based), or the line that says the
/// fork's own benchmark follows.
std::string bulk_warmup_line(const BenchmarkParams* plan, int index, int count, const BenchmarkParams& own);

/// For -f 0: reports, and collects the iterations into a ForkResult. `on_boundary`
/// is called between iterations, where an interrupted in-process run can end.
class InProcessObserver final : public engine::TrialObserver {
 public:
  InProcessObserver(report::OutputFormat& output, const BenchmarkParams& bp, ForkResult& collected,
                    std::function<void()> on_boundary)
      : output_(output), bp_(bp), collected_(collected), on_boundary_(std::move(on_boundary)) {}

  void iteration_started(const IterationParams& ip, int index) override;
  void iteration_finished(const IterationResult& result) override;
  void iteration_failed(const IterationParams& ip, int index, const Failure& failure) override;

  bool failure_shown() const { return failure_shown_; }

 private:
  report::OutputFormat& output_;
  const BenchmarkParams& bp_;
  ForkResult& collected_;
  std::function<void()> on_boundary_;
  bool failure_shown_ = false;
};

}  // namespace cmh::host

// SPDX-License-Identifier: MIT
// The inside of -prof icount: the profiler as it runs in the fork that the host
// re-executes under Callgrind (icount_rerun.hpp starts that fork).
//
// Before the trial it switches the engine to counted iterations (engine/counted_loop.hpp),
// starts Callgrind's instrumentation (off at start-up: --instr-atstart=no) and measures
// the counted loop with an empty body. After each measurement iteration it dumps
// Callgrind's counts (CALLGRIND_DUMP_STATS_AT, which also zeroes them), reads the dump
// and reports per op, the empty loop's instructions and data accesses subtracted once per
// worker thread (not its misses):
//   icount.ir.norm, icount.cycles.norm, icount.l1miss.norm, icount.llmiss.norm,
//   icount.branchmiss.norm (with --branch-sim=yes), icount.overhead.norm (the Ir per op
//   subtracted) and icount.overhead.cycles.norm (the host folds it into its note).
#pragma once

#include <cmh/profiler.hpp>

#include "callgrind_costs.hpp"

#include <cstdint>
#include <string>

namespace cmh::profilers {

/// The environment variable naming the Callgrind output file (--callgrind-out-file) of
/// the fork under Callgrind; its presence is what tells the profiler it is that fork.
inline constexpr const char* kIcountOutEnv = "CMH_ICOUNT_OUT";

class CallgrindCounter final : public InternalProfiler {
 public:
  /// Throws ProfilerError when this process does not run under Valgrind.
  CallgrindCounter(std::uint64_t calls, std::string out_file);

  void before_iteration(const BenchmarkParams&, const IterationParams&) override {}
  std::vector<ScalarResult> after_iteration(const BenchmarkParams& bp, const IterationParams& ip,
                                            const IterationResult& result) override;

 private:
  /// Dumps Callgrind's counts (and zeroes them) and reads the dump back.
  CallgrindCounts dump();

  std::uint64_t calls_;
  std::string out_file_;
  int dumps_ = 0;          ///< Callgrind numbers its dumps <out_file>.1, .2, ...
  CallgrindCounts empty_;  ///< the empty loop: `calls_` calls on one thread
};

}  // namespace cmh::profilers

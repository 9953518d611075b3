// SPDX-License-Identifier: MIT
// The interface between the engine (harness/src/engine) and the measurement loops
// instantiated in a benchmark's own translation unit (measure_loops.hpp): what one
// worker thread sees, the flags of one iteration, the counts a worker writes, and
// the few out-of-line helpers the loops call outside their hot path.
//
// Included by every benchmark file through <cmh/cmh.hpp>, so it declares rather than
// includes: the run parameters, the histogram and the state locks are complete only
// on the engine's side.
#pragma once

#include <cmh/option_values.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cmh {
class Blackhole;
class Control;
class SampleHistogram;
struct BenchmarkParams;
struct IterationParams;
struct ThreadParams;
}  // namespace cmh

namespace cmh::detail {

/// Parameter values of one trial, sorted by name (BenchmarkParams::params).
using ParamValues = std::vector<std::pair<std::string, std::string>>;

/// Serialises the invocation fixtures of one shared state instance; defined by the
/// engine (a std::mutex), locked through lock_state/unlock_state.
class StateLock;
void lock_state(StateLock* lock);
void unlock_state(StateLock* lock) noexcept;
struct StateLockGuard {
  StateLock* lock;
  explicit StateLockGuard(StateLock* l) : lock(l) { lock_state(l); }
  StateLockGuard(const StateLockGuard&) = delete;
  StateLockGuard& operator=(const StateLockGuard&) = delete;
  ~StateLockGuard() { unlock_state(lock); }
};

/// What one worker thread's code sees: its states (in the order of its member's
/// state closure) and the infrastructure objects it may be given.
struct WorkerView {
  void* const* instances = nullptr;
  StateLock* const* locks = nullptr;  ///< per instance; shared states only (invocation fixtures)
  Blackhole* blackhole = nullptr;
  Control* control = nullptr;
  const BenchmarkParams* benchmark = nullptr;
  const IterationParams* iteration = nullptr;
  const ThreadParams* thread = nullptr;
  const void* context = nullptr;  ///< MemberCode::context, for bodies registered at run time
};

/// Flags shared by the control thread and all workers during one iteration.
/// Each hot flag sits on its own cache lines, so that a thread finishing early
/// does not disturb the lines the others are polling.
struct IterationSync {
  alignas(128) std::atomic<bool> go{false};    ///< every thread has arrived: measure
  alignas(128) std::atomic<bool> stop{false};  ///< the iteration time is over
  alignas(128) std::atomic<int> arrived{0};
  alignas(128) std::atomic<int> measured{0};   ///< threads that closed their timed window
  std::atomic<bool> abort{false};              ///< a thread failed: leave every loop
  std::atomic<bool> spoiler{false};            ///< never set; read inside batch loops
  int threads = 1;
  bool synchronise = true;
};

/// One worker's counts for one iteration (written by the worker only).
struct alignas(128) WorkerTally {
  std::uint64_t calls = 0;           ///< body calls, ramp-up and ramp-down included
  std::uint64_t measured_calls = 0;  ///< body calls inside the timed window
  std::int64_t start_ns = 0;         ///< the timed window on the steady clock
  std::int64_t stop_ns = 0;
  std::int64_t measured_ns = 0;      ///< window length, or the sum of call times with invocation fixtures
  SampleHistogram* histogram = nullptr;  ///< sample-time and single-shot modes
  std::uint64_t sample_mask = 0;     ///< sample-time stride, kept across iterations as in JMH
  double* aux = nullptr;             ///< aux counter values at the end of the timed window
  /// The thread's CPU time and context switches over the timed window (cpu_window_edge):
  /// at the opening edge the readings, at the closing edge the differences; -1: not measured.
  std::int64_t cpu_ns = -1;
  std::int64_t involuntary_switches = -1;  ///< -1: not measured
  std::int64_t voluntary_switches = -1;
  std::int64_t run_delay_ns = -1;          ///< run-queue wait (schedstat); -1: not measured
  /// -subwin: ns per call of each recorded sub-window, into a buffer sized before the
  /// window opens (subwindow_log.hpp: clean ones from the front, rejected ones from the
  /// back); nullptr: the plain timed loop.
  double* subwindows = nullptr;
  std::uint32_t subwindow_capacity = 0;
  std::uint32_t subwindow_count = 0;     ///< recorded, clean and rejected
  std::uint32_t subwindow_rejected = 0;  ///< of those, at the buffer's end
  std::uint32_t subwindow_corrected = 0; ///< of the clean ones, kept without their run-queue wait
  double subwindow_clean_ns = 0;         ///< the clean ones' time and calls (SubwindowLog)
  double subwindow_clean_calls = 0;
  std::uint8_t subwindow_evidence = 0;   ///< WindowEvidence of the loop's probe
  std::int64_t subwindow_target_ns = 0;
  bool arrived = false;
  bool finished_measuring = false;
};

struct LoopArgs {
  WorkerView view;
  IterationSync* sync = nullptr;
  WorkerTally* tally = nullptr;
  BenchmarkMode mode = BenchmarkMode::throughput;
  int batch_size = 1;
  int ops_per_invocation = 1;
  std::uint64_t sample_target = 1000;  ///< samples before the stride doubles
  /// -prof icount: exactly this many calls instead of a timed window (engine/counted_loop.hpp); 0: timed.
  std::uint64_t counted_calls = 0;
};

using LoopFn = void (*)(LoopArgs&);
using FixtureFn = void (*)(void* self, const WorkerView& view);

/// Reads the calling thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), its context
/// switches (getrusage(RUSAGE_THREAD)) and its run-queue wait
/// (/proc/thread-self/schedstat, read into a stack buffer: no allocation) at one edge
/// of its timed window: at the opening edge it stores the readings in `t`, at the
/// closing edge the differences.
/// Out of line and called once per edge: two clock reads per iteration per thread,
/// nothing per op. Any loop that opens and closes a timed window calls it.
void cpu_window_edge(WorkerTally& t, bool opening) noexcept;

/// The functions of one benchmark body that its loops need, compiled in the
/// benchmark's own file (measure_loops.hpp); a constant table per body.
struct LoopHooks {
  /// One call, with invocation fixtures, untimed (ramps, single shots, sample-time batches).
  void (*untimed)(const void* ptrs, const WorkerView& view) = nullptr;
  /// One call timed alone, invocation fixtures outside the timing; only with invocation fixtures.
  std::int64_t (*timed_once)(const void* ptrs, const WorkerView& view) = nullptr;
  /// The time modes' timed loop: calls until `stop`; returns the calls; adds call times to `timed`
  /// when there are invocation fixtures.
  std::uint64_t (*time_loop)(const void* ptrs, const WorkerView& view, const std::atomic<bool>& stop,
                             std::int64_t& timed) = nullptr;
  /// -subwin's timed loop (no invocation fixtures): calls in chunks until `stop`, the
  /// clock read after each chunk; returns the calls. nullptr with invocation fixtures.
  std::uint64_t (*time_loop_windows)(const void* ptrs, const WorkerView& view, const std::atomic<bool>& stop,
                                     WorkerTally& tally) = nullptr;
  /// Aux counters: zeroed when the timed window opens, read when it closes; nullptr without.
  void (*reset_aux)(const WorkerView& view) = nullptr;
  void (*snapshot_aux)(const WorkerView& view, double* out) = nullptr;
  bool invocation = false;
};

/// One iteration of one worker in a.mode: arrival, untimed ramp-up, the timed window
/// around the body's loop (`ptrs`: its resolved arguments), ramp-down and the tally.
/// The frame of every mode, compiled once in the library (engine/loop_driver.cpp).
void drive_loop(LoopArgs& a, const LoopHooks& hooks, const void* ptrs);

}  // namespace cmh::detail

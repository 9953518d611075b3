// SPDX-License-Identifier: MIT
// The type-erased code of a benchmark: what the templates instantiated in the
// user's translation unit (state_graph.hpp, measure_loops.hpp) hand to the engine
// (harness/src/engine), and the plain structs through which the engine drives
// them. Per operation nothing here is called indirectly: the engine calls one
// LoopFn per thread per iteration, and that function runs the whole loop with
// the benchmark body inlined.
#pragma once

#include <cmh/histogram.hpp>
#include <cmh/options.hpp>
#include <cmh/params.hpp>
#include <cmh/registry.hpp>
#include <cmh/result.hpp>
#include <cmh/state.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace cmh {
class Blackhole;
class Control;
}  // namespace cmh

namespace cmh::detail {

/// Parameter values of one trial, sorted by name (BenchmarkParams::params).
using ParamValues = std::vector<std::pair<std::string, std::string>>;

/// What one worker thread's code sees: its states (in the order of its member's
/// state closure) and the infrastructure objects it may be given.
struct WorkerView {
  void* const* instances = nullptr;
  std::mutex* const* locks = nullptr;  ///< per instance; shared states only (invocation fixtures)
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
  /// at the opening edge the readings, at the closing edge the differences.
  std::int64_t cpu_ns = 0;
  std::int64_t involuntary_switches = -1;  ///< -1: not measured
  std::int64_t voluntary_switches = -1;
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
};

using LoopFn = void (*)(LoopArgs&);

/// Reads the calling thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) and its context
/// switches (getrusage(RUSAGE_THREAD)) at one edge of its timed window: at the
/// opening edge it stores the readings in `t`, at the closing edge the differences.
/// Out of line and called once per edge: two clock reads per iteration per thread,
/// nothing per op. Any loop that opens and closes a timed window calls it.
void cpu_window_edge(WorkerTally& t, bool opening) noexcept;
using FixtureFn = void (*)(void* self, const WorkerView& view);

/// One state type of a member's closure.
struct StateOps {
  const std::type_info* type = nullptr;
  Scope scope = Scope::thread;
  void* (*create)(const ParamValues& values) = nullptr;  ///< throws on a bad parameter value
  void (*destroy)(void* self) noexcept = nullptr;
  FixtureFn setup_trial = nullptr;
  FixtureFn setup_iteration = nullptr;
  FixtureFn teardown_iteration = nullptr;
  FixtureFn teardown_trial = nullptr;
  bool invocation_fixtures = false;
};

struct ParamCheck {
  std::string name;
  std::string type_name;
  bool (*accepts)(std::string_view value) = nullptr;
};

struct AuxCounterDecl {
  std::string name;
  bool events = false;
};

/// The code of one benchmark body (one @Group member, or the whole benchmark).
struct MemberCode {
  std::string name;
  std::vector<StateOps> states;          ///< the state closure, dependencies first
  std::vector<ParamDecl> params;         ///< declared by those states, sorted by name
  std::vector<ParamCheck> param_checks;  ///< one per (state, parameter)
  std::vector<AuxCounterDecl> aux_counters;  ///< in the order LoopFn writes WorkerTally::aux
  LoopFn loop = nullptr;
  /// Bodies registered at run time (the Google Benchmark layer): what their
  /// LoopFn and fixtures find in WorkerView::context, and an optional hook
  /// that appends the iteration's secondary results the body itself reported
  /// (its counters). The hook runs after the iteration teardowns, outside the
  /// profiled window, with this member's workers' views and measurements.
  const void* context = nullptr;
  void (*report)(const void* context, const std::vector<const WorkerView*>& views,
                 const std::vector<ThreadMeasurement>& threads, const BenchmarkParams& plan,
                 std::vector<ScalarResult>& out) = nullptr;
};

class BenchmarkCode {
 public:
  std::vector<MemberCode> members;  ///< one, or one per @Group member (BenchmarkDefinition order)
};

/// Thrown by StateOps::create when a parameter value does not convert.
struct ParamError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Per-benchmark options (CMH_BENCHMARK_OPTIONS); merged by the registry.
void register_benchmark_options(std::string group, std::string name, OptionSet options,
                                const char* file, int line);

}  // namespace cmh::detail

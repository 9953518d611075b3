// SPDX-License-Identifier: MIT
// Runner: one worker thread's side of a Google Benchmark instance for one cmh
// trial. It is a thread-scoped cmh state whose fixtures and LoopFn drive the
// user's function in a Coroutine:
//   setup_iteration:    the function runs up to its loop (fixture SetUp, the
//                       code before the loop) and is suspended there;
//   LoopFn (measured):  the loop waits until every thread has arrived, makes
//                       timed passes until the stop flag, then untimed passes
//                       until every thread has stopped (cmh's synchronised
//                       iterations), and is suspended again;
//   teardown_iteration: the code after the loop and TearDown run.
// Each pass is one op. The State's hot path polls one flag (State::watch_);
// NextPass handles every phase change.
#pragma once

#include <benchmark/benchmark.h>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/paused_allocations.hpp>

#include <cstdint>
#include <exception>
#include <vector>

#include "coroutine.hpp"
#include "family.hpp"

namespace benchmark::internal {

class Runner {
 public:
  /// The cmh code of an instance: one member, one thread-scoped state (the Runner).
  static cmh::detail::MemberCode member_code(const Instance& instance);

  // Called by State.
  bool start_loop();
  bool next_pass(std::uint64_t& count, std::uint64_t weight);
  void pause();
  void resume();
  void set_iteration_time(double seconds);
  void skip(int kind, const std::string& message);

 private:
  enum class Phase { none, measure, sample, ramp_down, fixed, done };
  enum class Stage { idle, at_loop, after_loop, finished };

  Runner();
  static void* create(const cmh::detail::ParamValues& values);
  static void destroy(void* self) noexcept;
  static void setup_trial(void* self, const cmh::detail::WorkerView& view);
  static void setup_iteration(void* self, const cmh::detail::WorkerView& view);
  static void teardown_iteration(void* self, const cmh::detail::WorkerView& view);
  static void loop(cmh::detail::LoopArgs& args);
  static void report(const void* context, const std::vector<const cmh::detail::WorkerView*>& views,
                     const std::vector<cmh::ThreadMeasurement>& threads, const cmh::BenchmarkParams& plan,
                     std::vector<cmh::ScalarResult>& out, std::string& label);
  static void body(void* self);

  void run_to_end();
  void rethrow_error();
  void begin_window();
  void close_window(std::uint64_t count);
  bool finish_loop();

  const Instance* instance_ = nullptr;
  State state_;
  Coroutine coroutine_;
  Stage stage_ = Stage::idle;
  Phase phase_ = Phase::none;
  cmh::detail::LoopArgs* args_ = nullptr;
  std::exception_ptr error_;

  std::int64_t t0_ = 0;
  std::int64_t paused_at_ = 0;
  std::int64_t paused_ns_ = 0;
  std::int64_t manual_ns_ = 0;
  bool paused_ = false;
  /// Inside the profiled window (the loop's phases), a pause also keeps what the thread
  /// allocates apart, for -prof alloc (paused_allocations.hpp).
  cmh::detail::PausedMark paused_allocations_;
  std::uint64_t measured_ = 0;  ///< passes in the timed window
  std::uint64_t untimed_ = 0;   ///< passes before and after it
  // Sample-time mode: passes are timed at random, the stride doubling as in cmh's engine.
  std::uint64_t rnd_ = 0x9E3779B97F4A7C15ull;
  std::uint64_t since_halving_ = 0;
  bool sampling_ = false;
  std::int64_t pass_start_ = 0;
};

}  // namespace benchmark::internal

// SPDX-License-Identifier: MIT
// The Runner's phases (see runner.hpp) and the State calls that reach them.
#include "runner.hpp"

#include <cmh/control.hpp>
#include <cmh/detail/measure_loops.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

namespace benchmark::internal {
/// SkipWithError: the trial fails with the message.
struct SkippedWithError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// SkipWithMessage: the trial fails ("skipped") with the message.
struct SkippedWithMessage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace {

// What the loop polls once a phase must end at every pass (ramp-down, fixed
// batches, sampling, errors): the hot path then always goes to NextPass.
const std::atomic<bool> kAlways{true};

constexpr std::size_t kStackBytes = 8u << 20;  // as a default thread stack

}  // namespace

Runner::Runner() : coroutine_(kStackBytes) { state_.runner_ = this; }

void* Runner::create(const cmh::detail::ParamValues&) { return new Runner(); }
void Runner::destroy(void* self) noexcept {
  auto* r = static_cast<Runner*>(self);
  r->run_to_end();  // a function still suspended runs to its end (its destructors run)
  delete r;
}

void Runner::setup_trial(void* self, const cmh::detail::WorkerView& view) {
  auto& r = *static_cast<Runner*>(self);
  r.instance_ = static_cast<const Instance*>(view.context);
  State& s = r.state_;
  s.name_ = r.instance_->name;
  s.threads_ = view.thread->thread_count;
  s.thread_index_ = view.thread->thread_index;
  s.range_ = r.instance_->args;
  // -p replaces an argument's value: parameters are named after the arguments.
  for (std::size_t i = 0; i < r.instance_->param_names.size(); ++i) {
    const std::string_view v = view.benchmark->param(r.instance_->param_names[i]);
    if (!v.empty()) s.range_[i] = std::stoll(std::string(v));
  }
  s.max_iterations = r.instance_->family->iterations > 0 ? r.instance_->family->iterations : 1;
}

void Runner::body(void* self) {
  auto& r = *static_cast<Runner*>(self);
  try {
    const Family& f = *r.instance_->family;
    if (f.setup) f.setup(r.state_);
    r.instance_->benchmark->Run(r.state_);
    if (f.teardown) f.teardown(r.state_);
  } catch (...) {
    r.error_ = std::current_exception();
  }
  r.stage_ = Stage::finished;
}

void Runner::setup_iteration(void* self, const cmh::detail::WorkerView&) {
  auto& r = *static_cast<Runner*>(self);
  State& s = r.state_;
  s.started_ = false;
  s.keep_running_count_ = 0;
  s.watch_ = &kAlways;
  s.iterations_ = 0;
  s.skipped_ = 0;
  s.skip_message_.clear();
  s.label_.clear();
  s.counters.clear();
  r.phase_ = Phase::none;
  r.measured_ = r.untimed_ = 0;
  r.paused_ = false;
  r.paused_allocations_ = {};
  r.args_ = nullptr;
  r.error_ = nullptr;
  r.stage_ = Stage::idle;
  r.coroutine_.start(&Runner::body, &r);
  r.coroutine_.resume();  // to the start of the loop, or to the end of a function without one
  if (r.stage_ == Stage::finished) r.rethrow_error();
}

void Runner::loop(cmh::detail::LoopArgs& a) {
  auto& r = *static_cast<Runner*>(a.view.instances[0]);
  const bool reached_loop = r.stage_ == Stage::at_loop;
  if (reached_loop) {
    r.args_ = &a;
    r.coroutine_.resume();  // the loop; back here when it has ended (or the function failed)
    r.args_ = nullptr;
  }
  if (r.stage_ == Stage::finished) r.rethrow_error();
  if (r.state_.skipped_ == 1) throw SkippedWithError(r.state_.skip_message_);
  if (r.state_.skipped_ == 2) throw SkippedWithMessage(r.state_.skip_message_);
  if (!reached_loop)
    throw std::logic_error(r.instance_->name + " returned without running its benchmark loop");
  a.tally->calls = r.measured_ + r.untimed_;
}

void Runner::teardown_iteration(void* self, const cmh::detail::WorkerView&) {
  auto& r = *static_cast<Runner*>(self);
  r.run_to_end();
  r.state_.max_iterations = r.instance_->family->iterations > 0
                                ? r.instance_->family->iterations
                                : static_cast<IterationCount>(std::max<std::uint64_t>(1, r.measured_));
  r.rethrow_error();
  // A skip reported after the loop fails the trial too (one reported in it already has).
  if (r.state_.skipped_ == 1) throw SkippedWithError(r.state_.skip_message_);
  if (r.state_.skipped_ == 2) throw SkippedWithMessage(r.state_.skip_message_);
}

void Runner::run_to_end() {
  args_ = nullptr;
  while (stage_ != Stage::finished && stage_ != Stage::idle) coroutine_.resume();
}

void Runner::rethrow_error() {
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

// ---- inside the coroutine ----

bool Runner::start_loop() {
  State& s = state_;
  if (s.started_) return false;  // a second loop in one run: nothing to do
  s.started_ = true;
  s.watch_ = &kAlways;
  if (s.skipped_ != 0) {
    phase_ = Phase::done;
    return false;
  }
  stage_ = Stage::at_loop;
  coroutine_.yield();  // the iteration's setup is done; resumed by the LoopFn
  if (args_ == nullptr) {  // the iteration never measured (a profiler failed): skip the loop
    phase_ = Phase::done;
    stage_ = Stage::after_loop;
    return false;
  }
  cmh::detail::LoopArgs& a = *args_;
  a.tally->arrived = true;
  a.sync->arrived.fetch_add(1, std::memory_order_acq_rel);
  a.sync->arrived.notify_all();
  // Threads wait for each other at the start of the loop, as in Google Benchmark
  // (a native cmh body makes untimed calls instead): so with one thread every
  // pass of the loop is a timed one.
  if (a.mode == cmh::BenchmarkMode::single_shot || a.sync->synchronise) {
    while (!a.sync->go.load(std::memory_order_acquire)) a.sync->go.wait(false, std::memory_order_acquire);
  }
  begin_window();
  if (a.mode == cmh::BenchmarkMode::single_shot) phase_ = Phase::fixed;
  return true;
}

void Runner::begin_window() {
  cmh::detail::LoopArgs& a = *args_;
  cmh::detail::ControlAccess::set_started(*a.view.control, true);
  paused_ns_ = 0;
  manual_ns_ = 0;
  // CPU time and context switches (cpu.time.norm, the disturbance flags, the gbench export's
  // cpu_time) are read just outside the steady-clock window, as cmh's own loops do: read inside
  // it, their system calls were timed too, which a short fixed batch (Iterations(n)) showed.
  cmh::detail::cpu_window_edge(*a.tally, true);
  t0_ = cmh::detail::now_ns();
  if (a.mode == cmh::BenchmarkMode::single_shot) {
    state_.watch_ = &kAlways;
  } else if (a.mode == cmh::BenchmarkMode::sample_time) {
    phase_ = Phase::sample;
    state_.watch_ = &kAlways;
    rnd_ ^= reinterpret_cast<std::uintptr_t>(this);
    since_halving_ = 0;
    sampling_ = false;
  } else {
    phase_ = Phase::measure;
    state_.watch_ = &a.sync->stop;
  }
}

void Runner::close_window(std::uint64_t count) {
  cmh::detail::LoopArgs& a = *args_;
  cmh::detail::WorkerTally& t = *a.tally;
  const std::int64_t t1 = cmh::detail::now_ns();
  cmh::detail::cpu_window_edge(t, false);
  if (paused_) paused_ns_ += t1 - std::max(paused_at_, t0_);
  const bool manual = instance_->family->use_manual_time;
  t.start_ns = t0_;
  t.stop_ns = t1;
  t.measured_ns = manual ? manual_ns_ : std::max<std::int64_t>(0, t1 - t0_ - paused_ns_);
  t.measured_calls = count;
  if (a.mode == cmh::BenchmarkMode::single_shot && t.histogram != nullptr)
    t.histogram->record(t.measured_ns / std::max(1, a.ops_per_invocation));
  measured_ = count;
  t.finished_measuring = true;
  a.sync->measured.fetch_add(1, std::memory_order_acq_rel);
}

bool Runner::finish_loop() {
  // The profiled window ends with the loop: a pause still open stops being kept apart here.
  cmh::detail::paused_end(paused_allocations_);
  paused_allocations_ = {};
  phase_ = Phase::done;
  state_.watch_ = &kAlways;
  state_.iterations_ = static_cast<IterationCount>(measured_);
  state_.max_iterations = state_.iterations_;  // known only now: the stop flag ended the loop
  stage_ = Stage::after_loop;
  coroutine_.yield();  // the LoopFn returns; resumed by the iteration's teardown
  return false;
}

bool Runner::next_pass(std::uint64_t& count, std::uint64_t weight) {
  const bool skipping = state_.skipped_ != 0;
  switch (phase_) {
    case Phase::sample: {
      cmh::detail::LoopArgs& a = *args_;
      const std::int64_t now = cmh::detail::now_ns();
      if (sampling_) {
        a.tally->histogram->record((now - pass_start_) / std::max(1, a.ops_per_invocation));
        if (++since_halving_ > a.sample_target) {
          a.tally->histogram->halve();
          since_halving_ = 0;
          a.tally->sample_mask = (a.tally->sample_mask << 1) | 1;
        }
      }
      if (!skipping && !a.sync->stop.load(std::memory_order_acquire)) {
        rnd_ = rnd_ * 6364136223846793005ull + 1442695040888963407ull;
        sampling_ = ((rnd_ >> 32) & a.tally->sample_mask) == 0;
        if (sampling_) pass_start_ = cmh::detail::now_ns();
        count += weight;
        return true;
      }
      [[fallthrough]];
    }
    case Phase::measure:
      // At least one pass per window, as cmh's own time loops (do-while): a thread that
      // reaches its loop after the stop flag (woken late past a short -r on a busy machine)
      // measures one pass rather than none, which has no time per op (cpu_time was null).
      if (count == 0 && !skipping) {
        count += weight;
        return true;
      }
      close_window(count);
      count = 0;
      if (skipping || !args_->sync->synchronise) return finish_loop();
      phase_ = Phase::ramp_down;
      state_.watch_ = &kAlways;
      [[fallthrough]];
    case Phase::ramp_down: {
      const cmh::detail::IterationSync& sync = *args_->sync;
      if (!skipping && sync.measured.load(std::memory_order_acquire) < sync.threads &&
          !sync.abort.load(std::memory_order_relaxed)) {
        count += weight;
        return true;
      }
      untimed_ += count;
      count = 0;
      return finish_loop();
    }
    case Phase::fixed:
      if (!skipping && count < static_cast<std::uint64_t>(args_->batch_size)) {
        count += weight;
        return true;
      }
      close_window(count);
      count = 0;
      return finish_loop();
    case Phase::none:
    case Phase::done: return false;
  }
  return false;
}

void Runner::pause() {
  if (paused_) return;  // a second pause keeps the first one's start
  paused_ = true;
  paused_at_ = cmh::detail::now_ns();
  if (phase_ == Phase::measure || phase_ == Phase::sample || phase_ == Phase::fixed || phase_ == Phase::ramp_down)
    paused_allocations_ = cmh::detail::paused_begin();
}

void Runner::resume() {
  if (!paused_) return;
  paused_ = false;
  const std::int64_t now = cmh::detail::now_ns();
  cmh::detail::paused_end(paused_allocations_);
  paused_allocations_ = {};
  if (phase_ == Phase::measure || phase_ == Phase::sample || phase_ == Phase::fixed)
    paused_ns_ += now - std::max(paused_at_, t0_);
}

void Runner::set_iteration_time(double seconds) {
  if (phase_ == Phase::measure || phase_ == Phase::sample || phase_ == Phase::fixed)
    manual_ns_ += static_cast<std::int64_t>(std::llround(seconds * 1e9));
}

void Runner::skip(int kind, const std::string& message) {
  if (state_.skipped_ == 0) {
    state_.skipped_ = kind;
    state_.skip_message_ = message;
  }
  state_.watch_ = &kAlways;  // the loop ends at its next check
}

// ---- counters: secondary results ----

namespace {

std::string counter_unit(const std::string& name, const Counter& c) {
  if (name == "bytes_per_second") return "bytes/s";
  if (name == "items_per_second") return "items/s";
  std::string per;
  if (c.flags & Counter::kAvgIterations) per += "/op";
  if (c.flags & Counter::kIsRate) per += "/s";
  if (c.flags & Counter::kInvert) return per.empty() ? "1/#" : per.substr(1) + "/#";
  return "#" + per;
}

}  // namespace

void Runner::report(const void*, const std::vector<const cmh::detail::WorkerView*>& views,
                    const std::vector<cmh::ThreadMeasurement>& threads, const cmh::BenchmarkParams&,
                    std::vector<cmh::ScalarResult>& out, std::string& label_out) {
  if (views.empty()) return;
  double seconds = 0;
  double iterations = 0;
  std::map<std::string, Counter> sums;
  std::vector<std::string> order;
  std::string label;
  ComplexityN complexity_n = 0;
  for (std::size_t w = 0; w < views.size(); ++w) {
    const auto& r = *static_cast<const Runner*>(views[w]->instances[0]);
    seconds += static_cast<double>(threads[w].duration_ns) / 1e9;
    iterations += static_cast<double>(r.measured_);
    for (const auto& [name, c] : r.state_.counters) {
      auto it = sums.find(name);
      if (it == sums.end()) {
        sums.emplace(name, c);
        order.push_back(name);
      } else {
        it->second.value += c.value;
      }
    }
    if (label.empty()) label = r.state_.label_;
    complexity_n = std::max(complexity_n, r.state_.complexity_n_);
  }
  seconds /= static_cast<double>(views.size());  // the time of one thread, as Google Benchmark's rates use
  const double nthreads = static_cast<double>(views.size());
  for (const auto& name : order) {
    const Counter& c = sums.at(name);
    double v = c.value;
    if (c.flags & Counter::kIsIterationInvariant) v *= iterations;
    if (c.flags & Counter::kIsRate) v = seconds > 0 ? v / seconds : 0;
    if (c.flags & Counter::kAvgThreads) v /= nthreads;
    if (c.flags & Counter::kAvgIterations) v = iterations > 0 ? v / iterations : 0;
    if (c.flags & Counter::kInvert) v = v != 0 ? 1 / v : 0;
    out.push_back({name, v, counter_unit(name, c), cmh::AggregationPolicy::average});
  }
  const auto& r0 = *static_cast<const Runner*>(views[0]->instances[0]);
  if (r0.instance_->family->complexity != oNone && complexity_n > 0)
    out.push_back({"complexity.n", static_cast<double>(complexity_n), "n", cmh::AggregationPolicy::max});
  label_out = label;  // text, never a metric: IterationResult::label
}

cmh::detail::MemberCode Runner::member_code(const Instance& instance) {
  cmh::detail::MemberCode m;
  m.name = "";
  cmh::detail::StateOps ops;
  ops.type = &typeid(Runner);
  ops.scope = cmh::Scope::thread;
  ops.create = &Runner::create;
  ops.destroy = &Runner::destroy;
  ops.setup_trial = &Runner::setup_trial;
  ops.setup_iteration = &Runner::setup_iteration;
  ops.teardown_iteration = &Runner::teardown_iteration;
  m.states.push_back(ops);
  for (std::size_t i = 0; i < instance.param_names.size(); ++i) {
    m.params.push_back({instance.param_names[i], {std::to_string(instance.args[i])}, "int64_t"});
    m.param_checks.push_back({instance.param_names[i], "int64_t", [](std::string_view v) {
                                std::size_t used = 0;
                                try {
                                  (void)std::stoll(std::string(v), &used);
                                } catch (const std::exception&) {
                                  return false;
                                }
                                return used == v.size() && !v.empty();
                              }});
  }
  std::sort(m.params.begin(), m.params.end(),
            [](const cmh::ParamDecl& a, const cmh::ParamDecl& b) { return a.name < b.name; });
  m.loop = &Runner::loop;
  m.context = &instance;
  m.report = &Runner::report;
  return m;
}

}  // namespace benchmark::internal

// ---- State: the calls that leave the hot path ----

namespace benchmark {

bool State::StartLoop() { return runner_->start_loop(); }
bool State::NextPass(std::uint64_t& count, std::uint64_t weight) { return runner_->next_pass(count, weight); }
void State::PauseTiming() { runner_->pause(); }
void State::ResumeTiming() { runner_->resume(); }
void State::SkipWithError(const std::string& msg) { runner_->skip(1, msg); }
void State::SkipWithMessage(const std::string& msg) { runner_->skip(2, msg); }
void State::SetIterationTime(double seconds) { runner_->set_iteration_time(seconds); }

}  // namespace benchmark

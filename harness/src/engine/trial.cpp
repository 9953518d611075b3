// SPDX-License-Identifier: MIT
// run_trial(): one trial of one benchmark in this process. The calling thread is
// the control thread; it owns the worker pool, the states and the per-worker
// slots for the whole trial, and around every iteration keeps the order
//   iteration_started -> iteration setups -> [gc] -> profilers' before_iteration
//   -> workers measure -> profilers' after_iteration (reverse) -> iteration
//   teardowns -> iteration_finished.
// Between before_iteration and after_iteration nothing here allocates: result
// vectors, histograms and counter buffers are sized before, and the workers
// are parked threads woken through futexes.
#include "engine/trial.hpp"

#include <cmh/allocator_api.hpp>
#include <cmh/blackhole.hpp>
#include <cmh/control.hpp>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/measure_loops.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/counted_loop.hpp"
#include "engine/failure.hpp"
#include "engine/host_load.hpp"
#include "engine/pinning.hpp"
#include "engine/scope_guard.hpp"
#include "engine/scores.hpp"
#include "engine/state_store.hpp"
#include "engine/thread_layout.hpp"
#include "engine/window_probe.hpp"
#include "engine/worker_pool.hpp"
#include <cmh/machine/topology.hpp>
#include "stats/precision.hpp"
#include "stats/robust_interval.hpp"

namespace cmh::engine {
namespace {

using Clock = std::chrono::steady_clock;

/// Everything one worker uses during the trial, on its own cache lines.
struct alignas(128) WorkerSlot {
  Blackhole blackhole;
  Control control;
  ThreadParams thread;
  int member = 0;
  detail::WorkerView view;
  detail::WorkerTally tally;
  std::unique_ptr<SampleHistogram> histogram;
  std::vector<double> aux;
  std::vector<double> subwindows;  ///< -subwin's buffer, sized in prepare(), before the window
  detail::LoopArgs args;
};

class Trial {
 public:
  Trial(const BenchmarkDefinition& def, const BenchmarkParams& plan,
        std::span<InternalProfiler* const> profilers, TrialObserver& observer)
      : def_(def), plan_(plan), profilers_(profilers), observer_(observer) {}
  Trial(const Trial&) = delete;
  Trial& operator=(const Trial&) = delete;

  std::optional<Failure> run();

 private:
  /// How the part of the trial with states ended. An iteration's failure was reported
  /// when it happened; a failure of the trial's own setup or teardown is reported by
  /// run() once every state is destroyed, at iteration `index` of `*unreported_at`.
  struct StatesEnd {
    std::optional<Failure> failure;
    const IterationParams* unreported_at = nullptr;
    int index = 1;
  };

  std::optional<Failure> check_plan();
  /// The workers' slots, where they run (-pin) and the pool of their threads.
  std::optional<Failure> start_workers();
  void create_slots();
  /// Creates the states and destroys them on every way out, an observer's or a
  /// profiler's exception included (on their owners, before the pool joins).
  StatesEnd run_with_states(const IterationParams& first);
  void create_store();
  std::optional<Failure> set_up_states();
  void destroy_states();
  /// Warmup, then measurement iterations; the first failure (reported) ends them.
  std::optional<Failure> run_iterations();
  bool measuring_done(int i, Clock::time_point trial_start, Clock::time_point measuring_start) const;
  std::optional<Failure> run_iteration(const IterationParams& ip, int index);
  void prepare(const IterationParams& ip, int index, IterationResult& r);
  void measure(const IterationParams& ip, IterationResult& r);
  void add_secondaries(IterationResult& r) const;
  void subwindow_score(IterationResult& r);
  std::optional<Failure> fail(const IterationParams& ip, int index, Failure f);
  static void measure_job(void* context, int worker);
  void abandon_iteration(WorkerSlot& slot);

  const BenchmarkDefinition& def_;
  const BenchmarkParams& plan_;
  std::span<InternalProfiler* const> profilers_;
  TrialObserver& observer_;

  std::vector<int> per_member_;
  std::vector<double> measured_scores_;  ///< measurement iterations' primary scores, for -prec
  std::int64_t subwindow_ns_ = 0;        ///< -subwin's length, -subwin auto resolved on first use
  ThreadLayout layout_;
  IterationParams current_;
  detail::IterationSync sync_;
  std::vector<std::unique_ptr<WorkerSlot>> slots_;
  std::optional<ProcessAffinityScope> process_affinity_;  ///< -pin: restored when the trial ends
  std::unique_ptr<WorkerPool> pool_;
  std::unique_ptr<StateStore> store_;
  std::vector<std::vector<ScalarResult>> profiler_results_;  // per profiler, sized before measuring
};

bool sampling(BenchmarkMode m) {
  return m == BenchmarkMode::sample_time || m == BenchmarkMode::single_shot;
}

std::optional<Failure> Trial::check_plan() {
  if (!def_.code || def_.code->members.empty())
    return make_failure(FailureKind::other, "benchmark " + def_.full_name() + " has no code");
  const auto members = def_.code->members.size();
  if (members > 1 || !def_.group_members.empty()) {
    per_member_ = plan_.thread_groups.empty() ? def_.group_threads : plan_.thread_groups;
    if (per_member_.size() != members)
      return make_failure(FailureKind::other, "thread groups give " + std::to_string(per_member_.size()) +
                                                  " counts for the " + std::to_string(members) +
                                                  " members of " + def_.full_name());
    for (int n : per_member_)
      if (n < 0) return make_failure(FailureKind::other, "a thread group count is negative");
    if (std::all_of(per_member_.begin(), per_member_.end(), [](int n) { return n == 0; }))
      return make_failure(FailureKind::other, "the thread groups of " + def_.full_name() + " have no threads");
  } else {
    per_member_ = {1};
  }
  for (const IterationParams* ip : {&plan_.warmup, &plan_.measurement})
    if (ip->batch_size < 1 || ip->count < 0)
      return make_failure(FailureKind::other, "iteration count and batch size must be positive");
  if (plan_.ops_per_invocation < 1)
    return make_failure(FailureKind::other, "operations per invocation must be at least 1");
  return std::nullopt;
}

std::optional<Failure> Trial::run() {
  const IterationParams& first = plan_.warmup.count > 0 ? plan_.warmup : plan_.measurement;
  current_ = first;
  std::optional<Failure> failure = check_plan();
  if (!failure) failure = start_workers();
  if (failure) return fail(first, 1, std::move(*failure));
  StatesEnd end = run_with_states(first);  // every state is destroyed by now
  if (end.failure && end.unreported_at != nullptr)
    return fail(*end.unreported_at, end.index, std::move(*end.failure));
  return std::move(end.failure);
}

void Trial::create_slots() {
  const bool needs_histogram = sampling(plan_.mode);
  for (const ThreadParams& thread : layout_.threads) {
    auto slot = std::make_unique<WorkerSlot>();
    slot->thread = thread;
    slot->member = slot->thread.subgroup_index;
    detail::ControlAccess::bind(slot->control, &sync_.stop);
    slot->view.blackhole = &slot->blackhole;
    slot->view.control = &slot->control;
    slot->view.benchmark = &plan_;
    slot->view.iteration = &current_;
    slot->view.thread = &slot->thread;
    slot->view.context = def_.code->members[slot->member].context;
    if (needs_histogram) slot->histogram = std::make_unique<SampleHistogram>();
    slot->aux.resize(def_.code->members[slot->member].aux_counters.size());
    slots_.push_back(std::move(slot));
  }
}

std::optional<Failure> Trial::start_workers() {
  layout_ = distribute_threads(plan_.threads, per_member_);
  create_slots();
  const int workers = static_cast<int>(slots_.size());
  std::optional<PinPlan> pins;
  if (pins_workers(plan_.pin)) {
    PinOutcome outcome = plan_pinning(plan_.pin, workers, machine::read_topology(machine::SysTree("/")),
                                      machine::thread_affinity());
    if (!outcome.plan) return make_failure(FailureKind::other, outcome.error);
    pins = std::move(outcome.plan);
  }
  // The control thread (and the profilers it calls) and the process's helper threads
  // off the workers' CPUs, before the workers start (they pin themselves).
  if (pins) process_affinity_.emplace(pins->control_cpus);
  try {
    pool_ = std::make_unique<WorkerPool>(workers, pins ? pins->worker_cpus : std::vector<int>{});
  } catch (const std::exception& e) {
    return make_failure(FailureKind::other, std::string("cannot start worker threads: ") + e.what());
  }
  if (pins) observer_.workers_pinned(pins->record);
  return std::nullopt;
}

Trial::StatesEnd Trial::run_with_states(const IterationParams& first) {
  create_store();
  ScopeGuard destroy_on_exit([this] { destroy_states(); });
  if (auto f = set_up_states()) return {std::move(f), &first, 1};
  // Threads started while the workers set up (the allocator's, the benchmark's) inherited
  // a worker's CPU: off it, too.
  if (process_affinity_) process_affinity_->move_others(pool_->thread_ids());
  if (auto f = run_iterations()) return {std::move(f)};
  if (auto f = store_->run(StateStep::teardown_trial)) {
    const IterationParams& last = plan_.measurement.count > 0 ? plan_.measurement : plan_.warmup;
    return {std::move(f), &last, std::max(1, last.count)};
  }
  return {};
}

void Trial::create_store() {
  std::vector<int> member_of;
  std::vector<detail::WorkerView*> views;
  for (const auto& slot : slots_) {
    member_of.push_back(slot->member);
    views.push_back(&slot->view);
  }
  store_ = std::make_unique<StateStore>(*def_.code, member_of, layout_, *pool_, views, plan_.params);
}

std::optional<Failure> Trial::set_up_states() {
  std::optional<Failure> failure = store_->run(StateStep::create);
  for (std::size_t w = 0; w < slots_.size(); ++w) {
    slots_[w]->view.instances = store_->instances(static_cast<int>(w));
    slots_[w]->view.locks = store_->locks(static_cast<int>(w));
  }
  if (!failure) failure = store_->run(StateStep::setup_trial);
  return failure;
}

// Teardowns only visit instances whose setup completed, so this is right on every path.
void Trial::destroy_states() {
  store_->run(StateStep::teardown_iteration);
  store_->run(StateStep::teardown_trial);
  store_->run(StateStep::destroy);
  store_.reset();
}

std::optional<Failure> Trial::run_iterations() {
  const auto trial_start = Clock::now();
  for (int i = 1; i <= plan_.warmup.count; ++i)
    if (auto f = run_iteration(plan_.warmup, i)) return f;
  const auto measuring_start = Clock::now();
  for (int i = 1; !measuring_done(i, trial_start, measuring_start); ++i)
    if (auto f = run_iteration(plan_.measurement, i)) return f;
  return std::nullopt;
}

// -prec: after the planned -i, more iterations until stats::next_iteration stops them.
bool Trial::measuring_done(int i, Clock::time_point trial_start, Clock::time_point measuring_start) const {
  if (i <= plan_.measurement.count) return false;
  if (plan_.precision <= 0) return true;
  return stats::next_iteration(measured_scores_, plan_.precision, plan_.measurement.count,
                               Clock::now() - trial_start, Clock::now() - measuring_start,
                               plan_.precision_budget) != stats::IterationStop::keep_going;
}

std::optional<Failure> Trial::fail(const IterationParams& ip, int index, Failure f) {
  observer_.iteration_failed(ip, index, f);
  return f;
}

void Trial::prepare(const IterationParams& ip, int index, IterationResult& r) {
  const int workers = static_cast<int>(slots_.size());
  r.kind = ip.kind;
  r.index = index;
  r.primary.label = def_.name;
  r.primary.unit = primary_unit(plan_.mode, plan_.time_unit);
  r.primary.policy = AggregationPolicy::average;
  r.threads.assign(workers, ThreadMeasurement{});
  if (sampling(plan_.mode)) r.samples.emplace();
  r.secondaries.reserve(def_.group_members.size() + 8);
  profiler_results_.assign(profilers_.size(), {});

  sync_.go.store(false);
  sync_.stop.store(false);
  sync_.arrived.store(0);
  sync_.measured.store(0);
  sync_.abort.store(false);
  sync_.threads = workers;
  // Counted iterations (-prof icount) make the same calls whatever the timing: no ramps.
  const std::uint64_t counted = counted_calls();
  sync_.synchronise = plan_.sync_iterations && plan_.mode != BenchmarkMode::single_shot && counted == 0;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(ip.time).count();
  // -subwin: room for every sub-window of at least half the target the iteration can
  // hold, sized here (outside the window and the profilers' view) and kept across iterations.
  if (subwindow_ns_ == 0 && plan_.subwindow.count() != 0)
    subwindow_ns_ = plan_.subwindow == kSubwindowAuto ? auto_subwindow_ns(measure_window_cost())
                                                      : plan_.subwindow.count();
  const std::int64_t target = subwindow_ns_;
  const bool subwindows = target > 0 && ip.kind == IterationKind::measurement &&
                          (plan_.mode == BenchmarkMode::throughput || plan_.mode == BenchmarkMode::average_time);
  const std::size_t capacity =
      subwindows ? static_cast<std::size_t>(std::min<std::int64_t>(2 * (ip.time.count() / target) + 64, 1 << 24)) : 0;
  for (auto& slot : slots_) {
    const std::uint64_t mask = slot->tally.sample_mask;
    slot->tally = detail::WorkerTally{};
    slot->tally.sample_mask = mask;
    slot->tally.histogram = slot->histogram.get();
    slot->tally.aux = slot->aux.empty() ? nullptr : slot->aux.data();
    if (subwindows) {
      if (slot->subwindows.size() < capacity) slot->subwindows.resize(capacity);
      slot->tally.subwindows = slot->subwindows.data();
      slot->tally.subwindow_capacity = static_cast<std::uint32_t>(slot->subwindows.size());
      slot->tally.subwindow_target_ns = target;
    }
    if (slot->histogram) slot->histogram->clear();
    std::fill(slot->aux.begin(), slot->aux.end(), 0.0);
    detail::ControlAccess::set_started(slot->control, false);
    slot->args.view = slot->view;
    slot->args.sync = &sync_;
    slot->args.tally = &slot->tally;
    slot->args.mode = plan_.mode;
    slot->args.batch_size = ip.batch_size;
    slot->args.ops_per_invocation = plan_.ops_per_invocation;
    slot->args.sample_target = static_cast<std::uint64_t>(std::max<long long>(1, ms * 20));  // JMH: 20 per ms
    slot->args.counted_calls = counted;
  }
}

void Trial::measure_job(void* context, int worker) {
  auto& trial = *static_cast<Trial*>(context);
  WorkerSlot& slot = *trial.slots_[worker];
  try {
    trial.def_.code->members[slot.member].loop(slot.args);
  } catch (...) {
    trial.abandon_iteration(slot);
    throw;
  }
}

/// A worker failed: release everybody from every loop and wait, so that the
/// iteration ends at once.
void Trial::abandon_iteration(WorkerSlot& slot) {
  sync_.abort.store(true);
  if (!slot.tally.arrived) {
    slot.tally.arrived = true;
    sync_.arrived.fetch_add(1);
    sync_.arrived.notify_all();
  }
  if (!slot.tally.finished_measuring) {
    slot.tally.finished_measuring = true;
    sync_.measured.fetch_add(1);
  }
  sync_.go.store(true);
  sync_.go.notify_all();
  sync_.stop.store(true);
}

void Trial::measure(const IterationParams& ip, IterationResult& r) {
  const int workers = static_cast<int>(slots_.size());
  const int failures_before = pool_->failure_count();
  pool_->post_all(Job{&measure_job, this});
  for (int seen = sync_.arrived.load(); seen < workers; seen = sync_.arrived.load())
    sync_.arrived.wait(seen);
  const auto go = Clock::now();
  const std::int64_t go_ns = detail::now_ns();
  sync_.go.store(true, std::memory_order_release);
  sync_.go.notify_all();
  if (plan_.mode != BenchmarkMode::single_shot && counted_calls() == 0)
    pool_->sleep_unless_failed(go + ip.time, failures_before);
  sync_.stop.store(true, std::memory_order_release);
  // JMH's deadline: the iteration start plus the timeout, but never less than
  // 100 ms after the stop signal. Threads cannot be interrupted in C++, so past
  // it the iteration is only marked; a fork's host watchdog ends a stuck fork.
  const auto deadline = std::max(go + plan_.timeout, Clock::now() + std::chrono::milliseconds(100));
  if (!pool_->wait_until(deadline)) {
    r.timed_out = true;
    pool_->wait();
  }

  std::uint64_t calls = 0;
  std::int64_t last_stop = go_ns;
  for (int w = 0; w < workers; ++w) {
    const WorkerSlot& slot = *slots_[w];
    const detail::WorkerTally& t = slot.tally;
    r.threads[w].subgroup_index = slot.member;
    r.threads[w].measured_ops = scale_ops(t.measured_calls, plan_.ops_per_invocation, ip.batch_size);
    r.threads[w].duration_ns = t.measured_ns;
    r.threads[w].window_ns = t.stop_ns - t.start_ns;
    r.threads[w].cpu_ns = t.cpu_ns;
    r.threads[w].involuntary_switches = t.involuntary_switches;
    r.threads[w].voluntary_switches = t.voluntary_switches;
    r.threads[w].run_delay_ns = t.run_delay_ns;
    r.measured_ops += r.threads[w].measured_ops;
    calls += t.calls;
    last_stop = std::max(last_stop, t.stop_ns);
    if (r.samples && slot.histogram) r.samples->merge(*slot.histogram);
  }
  r.all_ops = scale_ops(calls, plan_.ops_per_invocation, ip.batch_size);
  r.wall_ns = last_stop - go_ns;
  subwindow_score(r);
  if (plan_.mode == BenchmarkMode::sample_time) {
    HistogramSums sums;
    sums.add(*r.samples);
    r.primary.value = sums.mean() / nanos_per(plan_.time_unit);
  } else {
    r.primary.value = primary_iteration_score(plan_.mode, plan_.time_unit, r.threads);
  }
}

// -subwin: each thread's median sub-window, per op, combined over threads like the primary
// (throughput: summed rates; average time: the mean); and the mean and median of the clean
// windows (subwindow_log.hpp), which need every thread to have enough of them. In place:
// nothing is allocated.
void Trial::subwindow_score(IterationResult& r) {
  const auto as_score = [&](double per_call) {
    const double per_op = per_call / std::max(1, plan_.ops_per_invocation);
    return plan_.mode == BenchmarkMode::throughput ? nanos_per(plan_.time_unit) / per_op
                                                   : per_op / nanos_per(plan_.time_unit);
  };
  double all = 0, clean = 0, clean_median = 0;
  int threads = 0, clean_threads = 0;
  for (auto& slot : slots_) {
    detail::WorkerTally& t = slot->tally;
    if (t.subwindows == nullptr || t.subwindow_count == 0) continue;
    const std::uint32_t kept = t.subwindow_count - t.subwindow_rejected;
    if (kept >= detail::kMinCleanSubwindows) {
      // Their time over their calls: see SubwindowLog::clean_ns.
      clean += as_score(t.subwindow_clean_ns / t.subwindow_clean_calls);
      clean_median += as_score(stats::median_in_place(t.subwindows, t.subwindows + kept));  // reorders them
      ++clean_threads;
    }
    // The rejected windows sit at the buffer's end: move them next to the clean ones
    // (forwards, so an overlap is safe; a full buffer has them there already).
    double* const rejected = t.subwindows + t.subwindow_capacity - t.subwindow_rejected;
    if (rejected != t.subwindows + kept) std::copy(rejected, t.subwindows + t.subwindow_capacity, t.subwindows + kept);
    all += as_score(stats::median_in_place(t.subwindows, t.subwindows + t.subwindow_count));
    r.subwindows += t.subwindow_count;
    r.subwindows_rejected += t.subwindow_rejected;
    r.subwindows_corrected += t.subwindow_corrected;
    r.subwindow_evidence = std::max(r.subwindow_evidence, t.subwindow_evidence);
    ++threads;
  }
  if (threads == 0) return;
  r.subwindow_length_ns = subwindow_ns_;
  const double n = plan_.mode == BenchmarkMode::throughput ? 1.0 : static_cast<double>(threads);
  r.subwindow_median = all / n;
  if (clean_threads == threads) {
    r.subwindow_clean_mean = clean / n;
    r.subwindow_clean_median = clean_median / n;
  }
}

void Trial::add_secondaries(IterationResult& r) const {
  const std::string unit = primary_unit(plan_.mode, plan_.time_unit);
  // Each @Group member's own score, named after the member (JMH).
  for (std::size_t m = 0; m < def_.group_members.size(); ++m) {
    double value = 0;
    if (plan_.mode == BenchmarkMode::sample_time) {
      HistogramSums sums;
      for (const auto& slot : slots_)
        if (slot->member == static_cast<int>(m)) sums.add(*slot->histogram);
      value = sums.mean() / nanos_per(plan_.time_unit);
    } else {
      std::vector<ThreadMeasurement> mine;
      for (const auto& t : r.threads)
        if (t.subgroup_index == static_cast<int>(m)) mine.push_back(t);
      value = primary_iteration_score(plan_.mode, plan_.time_unit, mine);
    }
    r.secondaries.push_back({def_.group_members[m], value, unit, AggregationPolicy::average});
  }
  // Aux counters, combined over the threads that have them, in declaration order.
  struct Combined {
    std::string name;
    bool events = false;
    double sum = 0;
    std::vector<CountedWindow> windows;
  };
  std::vector<Combined> combined;
  for (const auto& slot : slots_) {
    const auto& decls = def_.code->members[slot->member].aux_counters;
    for (std::size_t k = 0; k < decls.size(); ++k) {
      auto it = std::find_if(combined.begin(), combined.end(),
                             [&](const Combined& c) { return c.name == decls[k].name; });
      if (it == combined.end()) {
        combined.push_back({decls[k].name, decls[k].events, 0, {}});
        it = combined.end() - 1;
      }
      it->sum += slot->aux[k];
      it->windows.push_back({slot->aux[k], static_cast<double>(slot->tally.measured_ns)});
    }
  }
  // Secondary results a run-time registered body reports itself (gbench counters).
  for (std::size_t m = 0; m < def_.code->members.size(); ++m) {
    const auto& member = def_.code->members[m];
    if (member.report == nullptr) continue;
    std::vector<const detail::WorkerView*> views;
    std::vector<ThreadMeasurement> threads;
    for (std::size_t w = 0; w < slots_.size(); ++w) {
      if (slots_[w]->member != static_cast<int>(m)) continue;
      views.push_back(&slots_[w]->view);
      threads.push_back(r.threads[w]);
    }
    member.report(member.context, views, threads, plan_, r.secondaries, r.label);
  }
  // Ops counters follow the primary's shape; the sampling modes report time per op.
  const BenchmarkMode counter_mode =
      plan_.mode == BenchmarkMode::throughput ? BenchmarkMode::throughput : BenchmarkMode::average_time;
  for (const auto& c : combined) {
    if (c.events) {
      r.secondaries.push_back({c.name, c.sum, "#", AggregationPolicy::sum});
    } else {
      r.secondaries.push_back({c.name, counter_score(counter_mode, plan_.time_unit, c.windows),
                               primary_unit(counter_mode, plan_.time_unit), AggregationPolicy::average});
    }
  }
}

std::optional<Failure> Trial::run_iteration(const IterationParams& ip, int index) {
  observer_.iteration_started(ip, index);
  current_ = ip;
  if (auto f = store_->run(StateStep::setup_iteration)) return fail(ip, index, std::move(*f));
  // The bundled allocator's "return free memory now" (-gc true); absent without it.
  if (plan_.gc_between_iterations && linked_allocator().collect != nullptr) linked_allocator().collect();

  IterationResult r;
  prepare(ip, index, r);
  const HostSample host_before = read_host_sample();
  std::optional<Failure> failure;
  std::size_t started = 0;
  try {
    for (; started < profilers_.size(); ++started) profilers_[started]->before_iteration(plan_, ip);
  } catch (const std::exception& e) {
    failure = make_failure(FailureKind::other, std::string("profiler failed before the iteration: ") + e.what());
  }
  if (!failure) {
    measure(ip, r);
    failure = pool_->first_failure();
  }
  // after_iteration runs for every profiler whose before_iteration ran, failure or not.
  for (std::size_t k = started; k-- > 0;) {
    try {
      profiler_results_[k] = profilers_[k]->after_iteration(plan_, ip, r);  // a move: no allocation here
    } catch (const std::exception& e) {
      if (!failure)
        failure = make_failure(FailureKind::other, std::string("profiler failed after the iteration: ") + e.what());
    }
  }
  if (auto f = store_->run(StateStep::teardown_iteration); f && !failure) failure = std::move(f);
  if (failure) return fail(ip, index, std::move(*failure));

  r.host = host_load_between(host_before, read_host_sample());
  add_secondaries(r);
  // Profilers come last: JMH lists their results after the benchmark's own.
  for (auto& results : profiler_results_)
    for (auto& p : results) r.secondaries.push_back(std::move(p));
  // -prec X:robust: the fork's own precision is that of its clean sub-window means.
  const bool robust = plan_.precision_robust && !std::isnan(r.subwindow_clean_mean);
  if (ip.kind == IterationKind::measurement) measured_scores_.push_back(robust ? r.subwindow_clean_mean : r.primary.value);
  observer_.iteration_finished(r);
  return std::nullopt;
}

}  // namespace

std::optional<Failure> run_trial(const BenchmarkDefinition& def, const BenchmarkParams& plan,
                                 std::span<InternalProfiler* const> profilers, TrialObserver& observer) {
  Trial trial(def, plan, profilers, observer);
  return trial.run();
}

}  // namespace cmh::engine

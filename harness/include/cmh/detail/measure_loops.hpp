// SPDX-License-Identifier: MIT
// The measurement loops, instantiated for each benchmark body in the user's
// translation unit so that the body is inlined into them (JMH's generated
// stubs). One loop per mode family:
//  - time modes (throughput, average time): untimed ramp-up calls until every
//    thread has arrived, a timed window closed by the control thread's stop
//    flag, untimed ramp-down calls until every thread has closed its window;
//  - sample time: the same frame, with batches timed at random and recorded
//    into a histogram whose sampling stride doubles as samples accumulate;
//  - single shot: one timed batch, no ramp.
// The hot loop is `do { body; ++n; } while (!stop.load(acquire))`: the acquire
// load also stops the compiler from hoisting state reads out of the loop.
#pragma once

#include <cmh/blackhole.hpp>
#include <cmh/control.hpp>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/state_graph.hpp>
#include <cmh/detail/type_list.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cmh::detail {

[[gnu::always_inline]] inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class Tag, class Closure>
struct Loops {
  using Args = typename Signature<decltype(&Tag::run)>::args;
  static constexpr bool kInvocation = []<class... S>(TypeList<S...>) {
    return (kHasInvocationFixtures<S> || ...);
  }(Closure{});

  // Pointers to the arguments of one worker, resolved once per iteration.
  template <class... A>
  static auto resolve_all(const WorkerView& v, TypeList<A...>) {
    return std::tuple<decltype(resolve<Closure, A>(v))...>{resolve<Closure, A>(v)...};
  }
  using Ptrs = decltype(resolve_all(std::declval<const WorkerView&>(), Args{}));

  template <std::size_t... I>
  [[gnu::always_inline]] static void call_at(const Ptrs& p, std::index_sequence<I...>) {
    if constexpr (std::is_void_v<decltype(Tag::run(*std::get<I>(p)...))>) {
      Tag::run(*std::get<I>(p)...);
    } else {
      Blackhole::consume(Tag::run(*std::get<I>(p)...));  // JMH consumes return values implicitly
    }
  }
  [[gnu::always_inline]] static void call(const Ptrs& p) {
    call_at(p, std::make_index_sequence<Args::size>{});
  }

  /// One untimed call with its invocation fixtures; out of line so that the
  /// ramp loops do not get their own copies of the body.
  [[gnu::noinline]] static void call_untimed(const Ptrs& p, const WorkerView& v) {
    if constexpr (kInvocation) run_invocation_fixtures<Closure, Fixture::setup_invocation>(v);
    call(p);
    if constexpr (kInvocation) run_invocation_fixtures<Closure, Fixture::teardown_invocation>(v);
  }

  /// One call timed on its own, its invocation fixtures outside the timing.
  [[gnu::always_inline]] static std::int64_t call_timed(const Ptrs& p, const WorkerView& v) {
    run_invocation_fixtures<Closure, Fixture::setup_invocation>(v);
    const std::int64_t t0 = now_ns();
    call(p);
    const std::int64_t t1 = now_ns();
    run_invocation_fixtures<Closure, Fixture::teardown_invocation>(v);
    return t1 - t0;
  }

  template <std::size_t K>
  static void reset_aux_at(const WorkerView& v) {
    using S = typename TypeAt<K, Closure>::type;
    if constexpr (HasAuxCounters<S>) {
      S& s = *static_cast<S*>(v.instances[K]);
      std::apply([&](const auto&... spec) { ((s.*spec.member = {}), ...); }, S::counters.specs);
    }
  }
  template <std::size_t K>
  static double* snapshot_aux_at(const WorkerView& v, double* out) {
    using S = typename TypeAt<K, Closure>::type;
    if constexpr (HasAuxCounters<S>) {
      const S& s = *static_cast<const S*>(v.instances[K]);
      std::apply([&](const auto&... spec) { ((*out++ = static_cast<double>(s.*spec.member)), ...); },
                 S::counters.specs);
    }
    return out;
  }
  static void reset_aux(const WorkerView& v) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (reset_aux_at<I>(v), ...);
    }(std::make_index_sequence<Closure::size>{});
  }
  static void snapshot_aux(const WorkerView& v, double* out) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((out = snapshot_aux_at<I>(v, out)), ...);
    }(std::make_index_sequence<Closure::size>{});
  }

  static void arrive(LoopArgs& a) {
    a.tally->arrived = true;
    a.sync->arrived.fetch_add(1, std::memory_order_acq_rel);
    a.sync->arrived.notify_all();
  }

  // The CPU clock is read last when opening and first when closing, so that it
  // brackets the steady-clock window as tightly as the aux counters allow.
  static void begin_window(LoopArgs& a) {
    ControlAccess::set_started(*a.view.control, true);
    reset_aux(a.view);
    cpu_window_edge(*a.tally, true);
  }

  static void end_window(LoopArgs& a) {
    cpu_window_edge(*a.tally, false);
    if (a.tally->aux != nullptr) snapshot_aux(a.view, a.tally->aux);
    a.tally->finished_measuring = true;
    a.sync->measured.fetch_add(1, std::memory_order_acq_rel);
  }

  /// Untimed calls until every thread has arrived (synchronised iterations).
  static std::uint64_t ramp_up(LoopArgs& a, const Ptrs& p) {
    std::uint64_t calls = 0;
    if (a.sync->synchronise) {
      while (!a.sync->go.load(std::memory_order_acquire)) {
        call_untimed(p, a.view);
        ++calls;
      }
    }
    return calls;
  }

  /// Untimed calls until every thread has closed its timed window.
  static std::uint64_t ramp_down(LoopArgs& a, const Ptrs& p) {
    std::uint64_t calls = 0;
    if (a.sync->synchronise) {
      while (a.sync->measured.load(std::memory_order_acquire) < a.sync->threads &&
             !a.sync->abort.load(std::memory_order_relaxed)) {
        call_untimed(p, a.view);
        ++calls;
      }
    }
    return calls;
  }

  static void time_mode(LoopArgs& a, const Ptrs& p) {
    const std::atomic<bool>& stop = a.sync->stop;
    WorkerTally& t = *a.tally;
    arrive(a);
    std::uint64_t ramp = ramp_up(a, p);
    begin_window(a);
    std::uint64_t n = 0;
    std::int64_t timed = 0;
    const std::int64_t t0 = now_ns();
    if constexpr (kInvocation) {
      do {
        timed += call_timed(p, a.view);
        ++n;
      } while (!stop.load(std::memory_order_acquire));
    } else {
      do {
        call(p);
        ++n;
      } while (!stop.load(std::memory_order_acquire));
    }
    const std::int64_t t1 = now_ns();
    t.start_ns = t0;
    t.stop_ns = t1;
    t.measured_ns = kInvocation ? timed : t1 - t0;
    t.measured_calls = n;
    end_window(a);
    ramp += ramp_down(a, p);
    t.calls = n + ramp;
  }

  static void sample_mode(LoopArgs& a, const Ptrs& p) {
    const std::atomic<bool>& stop = a.sync->stop;
    const std::atomic<bool>& spoiler = a.sync->spoiler;
    WorkerTally& t = *a.tally;
    SampleHistogram& histogram = *t.histogram;
    const int batch = a.batch_size;
    const std::int64_t opi = a.ops_per_invocation;
    arrive(a);
    std::uint64_t ramp = ramp_up(a, p);
    begin_window(a);
    // A 64-bit LCG, tested on its high bits (its low bits have short periods):
    // a batch is sampled with probability 1/(mask+1).
    std::uint64_t rnd = 0x9E3779B97F4A7C15ull ^ reinterpret_cast<std::uintptr_t>(&t);
    std::uint64_t mask = t.sample_mask;
    std::uint64_t since_halving = 0;
    std::uint64_t steps = 0;
    std::int64_t timed = 0;
    const std::int64_t t0 = now_ns();
    do {
      rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
      const bool sample = ((rnd >> 32) & mask) == 0;
      std::int64_t ns = 0;
      if constexpr (kInvocation) {
        for (int b = 0; b < batch; ++b) ns += call_timed(p, a.view);
        timed += ns;
      } else {
        const std::int64_t s0 = sample ? now_ns() : 0;
        for (int b = 0; b < batch; ++b) {
          call(p);
          if (spoiler.load(std::memory_order_acquire)) break;
        }
        if (sample) ns = now_ns() - s0;
      }
      if (sample) {
        histogram.record(ns / opi);
        if (++since_halving > a.sample_target) {
          histogram.halve();
          since_halving = 0;
          mask = (mask << 1) | 1;
        }
      }
      ++steps;
    } while (!stop.load(std::memory_order_acquire));
    const std::int64_t t1 = now_ns();
    t.sample_mask = mask;
    t.start_ns = t0;
    t.stop_ns = t1;
    t.measured_ns = kInvocation ? timed : t1 - t0;
    t.measured_calls = steps * static_cast<std::uint64_t>(batch);
    end_window(a);
    ramp += ramp_down(a, p);
    t.calls = t.measured_calls + ramp;
  }

  static void single_shot(LoopArgs& a, const Ptrs& p) {
    WorkerTally& t = *a.tally;
    const std::atomic<bool>& spoiler = a.sync->spoiler;
    const int batch = a.batch_size;
    arrive(a);
    while (!a.sync->go.load(std::memory_order_acquire)) a.sync->go.wait(false, std::memory_order_acquire);
    begin_window(a);
    std::int64_t timed = 0;
    const std::int64_t t0 = now_ns();
    if constexpr (kInvocation) {
      for (int b = 0; b < batch; ++b) timed += call_timed(p, a.view);
    } else {
      for (int b = 0; b < batch; ++b) {
        call(p);
        if (spoiler.load(std::memory_order_acquire)) break;
      }
    }
    const std::int64_t t1 = now_ns();
    t.start_ns = t0;
    t.stop_ns = t1;
    t.measured_ns = kInvocation ? timed : t1 - t0;
    t.measured_calls = static_cast<std::uint64_t>(batch);
    t.calls = t.measured_calls;
    if (t.histogram != nullptr) t.histogram->record(t.measured_ns / a.ops_per_invocation);
    end_window(a);
  }

  /// The LoopFn: one iteration of one worker.
  static void run(LoopArgs& a) {
    const Ptrs p = resolve_all(a.view, Args{});
    switch (a.mode) {
      case BenchmarkMode::throughput:
      case BenchmarkMode::average_time: time_mode(a, p); break;
      case BenchmarkMode::sample_time: sample_mode(a, p); break;
      case BenchmarkMode::single_shot: single_shot(a, p); break;
    }
  }
};

}  // namespace cmh::detail

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
// Only the time modes' loop inlines the body, and with one out-of-line copy of the
// body it is all that is compiled per benchmark; the rest (arrival, ramps, window
// edges, the sampling loop, the tally) is the library's (loop_interface.hpp:
// drive_loop), called through a constant table of this benchmark's functions,
// because every benchmark of every file compiles what is here.
#pragma once

#include <cmh/blackhole.hpp>
#include <cmh/control.hpp>
#include <cmh/detail/loop_interface.hpp>
#include <cmh/detail/paused_allocations.hpp>
#include <cmh/detail/state_graph.hpp>
#include <cmh/detail/subwindow_log.hpp>
#include <cmh/detail/type_list.hpp>

#include <atomic>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include <time.h>

namespace cmh::detail {

/// The steady clock (CLOCK_MONOTONIC, what std::chrono::steady_clock reads), without
/// <chrono>, which would cost every benchmark file more to compile than its loops.
[[gnu::always_inline]] inline std::int64_t now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

template <class Tag, class Closure>
struct Loops {
  using Args = typename Signature<decltype(&Tag::run)>::args;
  static constexpr bool kInvocation = []<class... S>(TypeList<S...>) {
    return (kHasInvocationFixtures<S> || ...);
  }(Closure{});
  static constexpr bool kAux = []<class... S>(TypeList<S...>) { return (HasAuxCounters<S> || ...); }(Closure{});

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

  /// Invocation fixtures run outside the call's timing: what they allocate is kept apart
  /// for -prof alloc (paused_allocations.hpp), one relaxed load when nobody tracks.
  template <Fixture F>
  [[gnu::always_inline]] static void invocation_fixtures(const WorkerView& v) {
    const PausedMark mark = paused_begin();
    run_invocation_fixtures<Closure, F>(v);
    paused_end(mark);
  }

  /// One call with its invocation fixtures, outside the time modes' loop: the ramps,
  /// single shots and sample time's batches. The out-of-line copy of the body: a single
  /// shot times cold calls and a sample at least two clock reads, next to which one
  /// call is noise.
  [[gnu::noinline]] static void call_untimed(const void* p, const WorkerView& v) {
    if constexpr (kInvocation) invocation_fixtures<Fixture::setup_invocation>(v);
    call(*static_cast<const Ptrs*>(p));
    if constexpr (kInvocation) invocation_fixtures<Fixture::teardown_invocation>(v);
  }

  /// One call timed on its own, its invocation fixtures outside the timing.
  [[gnu::always_inline]] static std::int64_t call_timed(const Ptrs& p, const WorkerView& v) {
    invocation_fixtures<Fixture::setup_invocation>(v);
    const std::int64_t t0 = now_ns();
    call(p);
    const std::int64_t t1 = now_ns();
    invocation_fixtures<Fixture::teardown_invocation>(v);
    return t1 - t0;
  }
  static std::int64_t call_timed_once(const void* p, const WorkerView& v) {
    return call_timed(*static_cast<const Ptrs*>(p), v);
  }

  /// The timed loop of the time modes: calls until the stop flag.
  static std::uint64_t time_loop(const void* ptrs, const WorkerView& v, const std::atomic<bool>& stop,
                                 std::int64_t& timed) {
    const Ptrs& p = *static_cast<const Ptrs*>(ptrs);
    std::uint64_t n = 0;
    if constexpr (kInvocation) {
      do {
        timed += call_timed(p, v);
        ++n;
      } while (!stop.load(std::memory_order_acquire));
    } else {
      do {
        call(p);
        ++n;
      } while (!stop.load(std::memory_order_acquire));
    }
    return n;
  }

  /// -subwin's timed loop: the body in chunks, the clock read after each. A chunk
  /// doubles while it takes under half the target (those are not recorded) and halves
  /// when one takes over four times the target; the others are recorded as ns per call
  /// while the buffer lasts, each with the probe's word on whether the thread was
  /// switched out in it (subwindow_log.hpp). Inside a chunk each call is followed by the
  /// stop flag's acquire load, as in time_loop: the body cannot be hoisted or folded out
  /// of the chunk, and the window closes as promptly. Selected once per iteration,
  /// outside the window.
  static std::uint64_t time_loop_windows(const void* ptrs, const WorkerView&, const std::atomic<bool>& stop,
                                         WorkerTally& t) {
    const Ptrs& p = *static_cast<const Ptrs*>(ptrs);
    const std::int64_t target = t.subwindow_target_ns;
    WindowProbe probe = this_thread_window_probe();
    SubwindowLog log{t.subwindows, t.subwindow_capacity};
    std::uint64_t n = 0;
    std::uint64_t chunk = 1;
    probe.arm();
    std::int64_t last = now_ns();
    bool stopped = false;
    do {
      std::uint64_t calls = 0;
      // Two predicted branches per call, as time_loop has one: without the hints GCC 12
      // merged both tests into setcc/and here, which doubled an empty body's cost.
      do {
        call(p);
        ++calls;
        stopped = stop.load(std::memory_order_acquire);
      } while (__builtin_expect(!stopped, 1) && __builtin_expect(calls < chunk, 1));
      n += calls;
      const std::int64_t now = now_ns();
      const bool switched = probe.check();
      std::int64_t took = now - last;
      // After a switch, the time spent waiting for a CPU comes out of the window.
      const std::int64_t waited = switched ? probe.waited() : -1;
      const bool corrected = waited >= 0 && waited < took;
      if (corrected) took -= waited;
      // System calls (the fallback's, the wait's) stay out of the next window (not out of
      // the iteration's).
      last = probe.costly() || switched ? now_ns() : now;
      if (took * 2 < target) {
        log.skip(switched);
        if (chunk < (std::uint64_t{1} << 40)) chunk *= 2;
        continue;
      }
      log.add(static_cast<double>(took) / static_cast<double>(calls), switched, corrected, static_cast<double>(calls));
      if (took > 4 * target && chunk > 1) chunk /= 2;
    } while (!stopped);
    probe.disarm();
    t.subwindow_count = log.clean + log.rejected;
    t.subwindow_rejected = log.rejected;
    t.subwindow_corrected = log.corrected;
    t.subwindow_clean_ns = log.clean_ns;
    t.subwindow_clean_calls = log.clean_calls;
    t.subwindow_evidence = static_cast<std::uint8_t>(probe.evidence());
    return n;
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

  static constexpr LoopHooks kHooks = [] {
    LoopHooks h;
    h.untimed = &call_untimed;
    h.timed_once = kInvocation ? &call_timed_once : nullptr;
    h.time_loop = &time_loop;
    if constexpr (!kInvocation) h.time_loop_windows = &time_loop_windows;
    if constexpr (kAux) {
      h.reset_aux = &reset_aux;
      h.snapshot_aux = &snapshot_aux;
    }
    h.invocation = kInvocation;
    return h;
  }();

  /// The LoopFn: one iteration of one worker.
  static void run(LoopArgs& a) {
    const Ptrs p = resolve_all(a.view, Args{});
    drive_loop(a, kHooks, &p);
  }
};

}  // namespace cmh::detail

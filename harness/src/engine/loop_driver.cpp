// SPDX-License-Identifier: MIT
// drive_loop(): the frame of one worker's iteration in every mode (JMH's generated
// stub, minus the body's own loop). The benchmark's file compiles only the loops that
// inline the body (measure_loops.hpp) and hands them over in a LoopHooks table; the
// rest is here, compiled once:
//  - time modes: arrive, untimed ramp-up calls until every thread has arrived, the
//    timed window (steady clock and CPU clock, aux counters), untimed ramp-down calls
//    until every thread has closed its window;
//  - sample time: the same frame around the sampling loop, which calls the body
//    out of line;
//  - single shot: wait until all have arrived, then one timed batch, no ramp;
//  - counted (-prof icount, any mode): the time modes' frame, unsynchronised, around
//    exactly N calls instead of the timed loop (engine/counted_loop.cpp).
// The timed window opens right before the call into the body's loop and closes right
// after it returns: one indirect call and return per iteration inside the window.
#include <cmh/control.hpp>
#include <cmh/detail/loop_interface.hpp>
#include <cmh/detail/measure_loops.hpp>
#include <cmh/histogram.hpp>

#include <atomic>
#include <cstdint>

#include "engine/counted_loop.hpp"

namespace cmh::detail {
namespace {

void arrive(LoopArgs& a) {
  a.tally->arrived = true;
  a.sync->arrived.fetch_add(1, std::memory_order_acq_rel);
  a.sync->arrived.notify_all();
}

// The CPU clock is read last when opening and first when closing, so that it
// brackets the steady-clock window as tightly as the aux counters allow.
void begin_window(LoopArgs& a, const LoopHooks& h) {
  ControlAccess::set_started(*a.view.control, true);
  if (h.reset_aux != nullptr) h.reset_aux(a.view);
  cpu_window_edge(*a.tally, true);
}

void end_window(LoopArgs& a, const LoopHooks& h) {
  cpu_window_edge(*a.tally, false);
  if (a.tally->aux != nullptr && h.snapshot_aux != nullptr) h.snapshot_aux(a.view, a.tally->aux);
  a.tally->finished_measuring = true;
  a.sync->measured.fetch_add(1, std::memory_order_acq_rel);
}

/// Untimed calls until every thread has arrived (synchronised iterations).
std::uint64_t ramp_up(LoopArgs& a, const LoopHooks& h, const void* p) {
  std::uint64_t calls = 0;
  if (a.sync->synchronise) {
    while (!a.sync->go.load(std::memory_order_acquire)) {
      h.untimed(p, a.view);
      ++calls;
    }
  }
  return calls;
}

/// Untimed calls until every thread has closed its timed window.
std::uint64_t ramp_down(LoopArgs& a, const LoopHooks& h, const void* p) {
  std::uint64_t calls = 0;
  if (a.sync->synchronise) {
    while (a.sync->measured.load(std::memory_order_acquire) < a.sync->threads &&
           !a.sync->abort.load(std::memory_order_relaxed)) {
      h.untimed(p, a.view);
      ++calls;
    }
  }
  return calls;
}

void time_mode(LoopArgs& a, const LoopHooks& h, const void* p) {
  WorkerTally& t = *a.tally;
  arrive(a);
  std::uint64_t ramp = ramp_up(a, h, p);
  // -subwin's loop or the plain one, chosen here, outside the window.
  const bool windows = t.subwindows != nullptr && h.time_loop_windows != nullptr;
  begin_window(a, h);
  std::int64_t timed = 0;
  std::int64_t t0 = 0;
  std::uint64_t n = 0;
  if (a.counted_calls != 0) {
    t0 = now_ns();
    n = counted_loop(a, h, p, timed);
  } else if (windows) {
    t0 = now_ns();
    n = h.time_loop_windows(p, a.view, a.sync->stop, t);
  } else {
    t0 = now_ns();
    n = h.time_loop(p, a.view, a.sync->stop, timed);
  }
  const std::int64_t t1 = now_ns();
  t.start_ns = t0;
  t.stop_ns = t1;
  t.measured_ns = h.invocation ? timed : t1 - t0;
  t.measured_calls = n;
  end_window(a, h);
  ramp += ramp_down(a, h, p);
  t.calls = n + ramp;
}

/// Batches until the stop flag, a random one in mask+1 timed and recorded. The body
/// is called out of line (LoopHooks::untimed): a sample's two clock reads cost more
/// than that call.
void sample_mode(LoopArgs& a, const LoopHooks& h, const void* p) {
  WorkerTally& t = *a.tally;
  const std::atomic<bool>& stop = a.sync->stop;
  const std::atomic<bool>& spoiler = a.sync->spoiler;
  SampleHistogram& histogram = *t.histogram;
  const int batch = a.batch_size;
  const std::int64_t opi = a.ops_per_invocation;
  arrive(a);
  std::uint64_t ramp = ramp_up(a, h, p);
  begin_window(a, h);
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
    if (h.invocation) {
      for (int b = 0; b < batch; ++b) ns += h.timed_once(p, a.view);
      timed += ns;
    } else {
      const std::int64_t s0 = sample ? now_ns() : 0;
      for (int b = 0; b < batch; ++b) {
        h.untimed(p, a.view);
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
  t.measured_ns = h.invocation ? timed : t1 - t0;
  t.measured_calls = steps * static_cast<std::uint64_t>(batch);
  end_window(a, h);
  ramp += ramp_down(a, h, p);
  t.calls = t.measured_calls + ramp;
}

void single_shot(LoopArgs& a, const LoopHooks& h, const void* p) {
  WorkerTally& t = *a.tally;
  const std::atomic<bool>& spoiler = a.sync->spoiler;
  const int batch = a.batch_size;
  arrive(a);
  while (!a.sync->go.load(std::memory_order_acquire)) a.sync->go.wait(false, std::memory_order_acquire);
  begin_window(a, h);
  std::int64_t timed = 0;
  const std::int64_t t0 = now_ns();
  if (h.invocation) {
    for (int b = 0; b < batch; ++b) timed += h.timed_once(p, a.view);
  } else {
    for (int b = 0; b < batch; ++b) {
      h.untimed(p, a.view);
      if (spoiler.load(std::memory_order_acquire)) break;
    }
  }
  const std::int64_t t1 = now_ns();
  t.start_ns = t0;
  t.stop_ns = t1;
  t.measured_ns = h.invocation ? timed : t1 - t0;
  t.measured_calls = static_cast<std::uint64_t>(batch);
  t.calls = t.measured_calls;
  if (t.histogram != nullptr) t.histogram->record(t.measured_ns / a.ops_per_invocation);
  end_window(a, h);
}

}  // namespace

void drive_loop(LoopArgs& a, const LoopHooks& hooks, const void* ptrs) {
  if (a.counted_calls != 0) return time_mode(a, hooks, ptrs);  // every mode: counted, not timed
  switch (a.mode) {
    case BenchmarkMode::throughput:
    case BenchmarkMode::average_time: time_mode(a, hooks, ptrs); break;
    case BenchmarkMode::sample_time: sample_mode(a, hooks, ptrs); break;
    case BenchmarkMode::single_shot: single_shot(a, hooks, ptrs); break;
  }
}

}  // namespace cmh::detail

// SPDX-License-Identifier: MIT
// this_thread_window_probe() and the auto sub-window length: see window_probe.hpp and
// <cmh/detail/subwindow_log.hpp>.
#include "engine/window_probe.hpp"

#include <cmh/detail/measure_loops.hpp>
#include <cmh/detail/subwindow_log.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#endif

namespace cmh::detail {
namespace {

std::int64_t thread_switch_count() noexcept {
  rusage ru{};
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return -1;
  return static_cast<std::int64_t>(ru.ru_nivcsw) + static_cast<std::int64_t>(ru.ru_nvcsw);
}

#if defined(RSEQ_SIG)
/// A critical-section descriptor whose range is empty: the thread is never inside it, so
/// the kernel only ever clears the pointer to it. It must still pass the kernel's checks
/// (version 0, addresses below the task size, the registered signature right before
/// abort_ip), or the thread would get SIGSEGV; a signature word in data serves.
struct EmptyRange {
  alignas(8) std::uint32_t signature[2] = {RSEQ_SIG, 0};
  struct rseq_cs descriptor {};
  EmptyRange() {
    const auto at = [](const void* p) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)); };
    descriptor.version = 0;
    descriptor.flags = 0;
    descriptor.start_ip = at(&signature[0]);
    descriptor.post_commit_offset = 0;
    descriptor.abort_ip = at(&signature[1]);
  }
};

struct rseq* this_thread_rseq() noexcept {
  if (__rseq_size == 0) return nullptr;
  auto* area = reinterpret_cast<struct rseq*>(static_cast<char*>(__builtin_thread_pointer()) + __rseq_offset);
  // A thread whose own registration failed reads RSEQ_CPU_ID_REGISTRATION_FAILED (-2).
  return static_cast<std::int32_t>(area->cpu_id) >= 0 ? area : nullptr;
}
#endif

}  // namespace

WindowProbe this_thread_window_probe() noexcept {
  WindowProbe probe;
  // Whether schedstat is readable is the kernel's, the same for every thread: asked once.
  static const bool run_delay_known = thread_run_delay_ns() >= 0;
  if (run_delay_known) probe.run_delay = &thread_run_delay_ns;
#if defined(RSEQ_SIG)
  if (struct rseq* area = this_thread_rseq()) {
    static const EmptyRange empty;
    // Someone else's critical section is active (a library using rseq): leave it alone.
    // (Ours may be left armed by a body that threw out of the loop.)
    const auto token = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&empty.descriptor));
    if (area->rseq_cs == 0 || area->rseq_cs == token) {
      probe.word = reinterpret_cast<volatile std::uint64_t*>(&area->rseq_cs);
      probe.token = token;
      return probe;
    }
  }
#endif
  if (thread_switch_count() >= 0) probe.switches = &thread_switch_count;
  return probe;
}

}  // namespace cmh::detail

namespace cmh::engine {

WindowCost measure_window_cost() noexcept {
  constexpr int kRounds = 5;
  constexpr int kReads = 200;
  WindowCost cost;
  cost.clock_ns = cost.probe_ns = 1e18;
  detail::WindowProbe probe = detail::this_thread_window_probe();
  cost.evidence = static_cast<std::uint8_t>(probe.evidence());
  probe.arm();
  for (int r = 0; r < kRounds; ++r) {
    std::int64_t sink = 0;
    const std::int64_t t0 = detail::now_ns();
    for (int i = 0; i < kReads; ++i) sink += detail::now_ns();
    const std::int64_t t1 = detail::now_ns();
    for (int i = 0; i < kReads; ++i) sink += probe.check() ? 1 : 0;
    const std::int64_t t2 = detail::now_ns();
    cost.clock_ns = std::min(cost.clock_ns, static_cast<double>(t1 - t0) / kReads);
    cost.probe_ns = std::min(cost.probe_ns, static_cast<double>(t2 - t1) / kReads);
    asm volatile("" : : "r"(sink));
  }
  probe.disarm();
  return cost;
}

std::int64_t auto_subwindow_ns(const WindowCost& cost) noexcept {
  const double ns = kAutoCostRatio * (cost.clock_ns + cost.probe_ns);
  const auto us = static_cast<std::int64_t>(std::ceil(std::max(ns, 0.0) / 1000.0));
  return std::clamp<std::int64_t>(us * 1000, kAutoMinNs, kAutoMaxNs);
}

}  // namespace cmh::engine

// SPDX-License-Identifier: MIT
// cpu_window_edge(): the worker's CPU clock and context switches at the edges of
// its timed window. Per-thread CPU time is what Google Benchmark reports as
// cpu_time; together with the window's wall time it says how much of the window
// the thread actually ran (preemption, steal), and the switch counts say why.
#include <cmh/detail/benchmark_code.hpp>

#include <sys/resource.h>
#include <time.h>

namespace cmh::detail {

void cpu_window_edge(WorkerTally& t, bool opening) noexcept {
  timespec ts{};
  rusage ru{};
  std::int64_t cpu = 0;
  bool have_usage = false;
  // Opening: the switch counts first and the clock last, closest to the window;
  // closing: the other way round.
  if (opening) have_usage = getrusage(RUSAGE_THREAD, &ru) == 0;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    cpu = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  if (!opening) have_usage = getrusage(RUSAGE_THREAD, &ru) == 0;
  if (opening) {
    t.cpu_ns = cpu;
    t.involuntary_switches = have_usage ? ru.ru_nivcsw : -1;
    t.voluntary_switches = have_usage ? ru.ru_nvcsw : -1;
    return;
  }
  t.cpu_ns = cpu > t.cpu_ns && t.cpu_ns > 0 ? cpu - t.cpu_ns : 0;
  const bool measured = have_usage && t.involuntary_switches >= 0;
  t.involuntary_switches = measured ? ru.ru_nivcsw - t.involuntary_switches : -1;
  t.voluntary_switches = measured ? ru.ru_nvcsw - t.voluntary_switches : -1;
}

}  // namespace cmh::detail

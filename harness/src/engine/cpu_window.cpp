// SPDX-License-Identifier: MIT
// cpu_window_edge(): the worker's CPU clock, context switches and run-queue wait at
// the edges of its timed window. Per-thread CPU time is what Google Benchmark reports
// as cpu_time; together with the window's wall time it says how much of the window
// the thread actually ran (preemption, steal), the switch counts say why, and the
// run-queue wait says how long it was ready to run but had no CPU.
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/detail/subwindow_log.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace cmh::detail {

/// The second field of /proc/thread-self/schedstat ("exec_ns run_delay_ns timeslices"):
/// nanoseconds the thread spent on a run queue waiting for a CPU. -1 where unavailable.
/// Plain syscalls and a stack buffer: the allocation profiler must not see it.
std::int64_t thread_run_delay_ns() noexcept {
  const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[96];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char* end = nullptr;
  std::strtoll(buf, &end, 10);
  if (end == buf) return -1;
  const char* second = end;
  const long long delay = std::strtoll(second, &end, 10);
  return end == second || delay < 0 ? -1 : static_cast<std::int64_t>(delay);
}

void cpu_window_edge(WorkerTally& t, bool opening) noexcept {
  timespec ts{};
  rusage ru{};
  std::int64_t cpu = -1;
  bool have_usage = false;
  std::int64_t delay = -1;
  // Opening: the run-queue wait and switch counts first and the clock last, closest
  // to the window; closing: the other way round.
  if (opening) {
    delay = thread_run_delay_ns();
    have_usage = getrusage(RUSAGE_THREAD, &ru) == 0;
  }
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    cpu = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  if (!opening) {
    have_usage = getrusage(RUSAGE_THREAD, &ru) == 0;
    delay = thread_run_delay_ns();
  }
  if (opening) {
    t.cpu_ns = cpu;
    t.involuntary_switches = have_usage ? ru.ru_nivcsw : -1;
    t.voluntary_switches = have_usage ? ru.ru_nvcsw : -1;
    t.run_delay_ns = delay;
    return;
  }
  // A clock that did not advance is a reading of 0 (a coarse clock over a short window).
  t.cpu_ns = cpu >= 0 && t.cpu_ns >= 0 ? std::max<std::int64_t>(cpu - t.cpu_ns, 0) : -1;
  const bool measured = have_usage && t.involuntary_switches >= 0;
  t.involuntary_switches = measured ? ru.ru_nivcsw - t.involuntary_switches : -1;
  t.voluntary_switches = measured ? ru.ru_nvcsw - t.voluntary_switches : -1;
  t.run_delay_ns = delay >= 0 && t.run_delay_ns >= 0 && delay >= t.run_delay_ns ? delay - t.run_delay_ns : -1;
}

}  // namespace cmh::detail

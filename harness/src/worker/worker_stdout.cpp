// SPDX-License-Identifier: MIT
// The fork worker's stdout buffering and its flushes (see worker_stdout.hpp).
#include "worker/worker_stdout.hpp"

#include <errno.h>
#include <signal.h>
#include <stdio_ext.h>
#include <unistd.h>

#include <cstdio>
#include <iterator>

namespace cmh::forking {

namespace {

// Static, so that the stream never allocates: the first line a benchmark prints
// inside a measured iteration would otherwise be charged to it (-prof alloc).
constexpr std::size_t kBufferBytes = 64 * 1024;
char g_buffer[kBufferBytes];

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizer's own handlers report faults; they are left alone.
constexpr int kFatalSignals[] = {SIGABRT, SIGTERM};
#else
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM};
#endif
struct sigaction g_previous[std::size(kFatalSignals)];

/// Writes what stdout's buffer holds, from a signal handler: no lock, no stdio call.
/// glibc's FILE fields are the only way to the pending bytes (__fpending gives only
/// their count); elsewhere a crash loses at most the last kFlushPeriod of output.
void write_pending() noexcept {
#if defined(__GLIBC__)
  const char* p = stdout->_IO_write_base;
  const char* const end = stdout->_IO_write_ptr;
  if (p == nullptr || end == nullptr) return;
  while (p < end) {
    const ssize_t n = ::write(STDOUT_FILENO, p, static_cast<std::size_t>(end - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
  }
#endif
}

void on_fatal_signal(int sig, siginfo_t* info, void*) {
  const int saved_errno = errno;
  write_pending();
  // The signal goes on as if this handler had not been there: the previous
  // disposition comes back, then a fault re-runs its instruction on return and a
  // sent signal (kill, raise, abort) is raised again, pending until we return.
  for (std::size_t i = 0; i < std::size(kFatalSignals); ++i)
    if (kFatalSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  if (info == nullptr || info->si_code <= 0) ::raise(sig);
  errno = saved_errno;
}

void install_fatal_signal_flush() {
  for (std::size_t i = 0; i < std::size(kFatalSignals); ++i) {
    struct sigaction previous {};
    ::sigaction(kFatalSignals[i], nullptr, &previous);
    if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) continue;  // ignored stays ignored
    g_previous[i] = previous;
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    // On the alternate stack of a StackGuard thread, so that a stack overflow is flushed too.
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    ::sigaction(kFatalSignals[i], &sa, nullptr);
  }
}

}  // namespace

WorkerStdout::WorkerStdout() {
  std::fflush(stdout);  // anything a static initialiser printed, before the buffer changes
  std::setvbuf(stdout, g_buffer, _IOFBF, sizeof g_buffer);
  install_fatal_signal_flush();
  thread_ = std::thread([this] { flusher(); });
}

WorkerStdout::~WorkerStdout() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
  flush();
}

void WorkerStdout::flush() noexcept { std::fflush(stdout); }

void WorkerStdout::flusher() {
  std::unique_lock<std::mutex> guard(lock_);
  auto period = kIdleFlushPeriod;
  while (!wake_.wait_for(guard, period, [this] { return stopping_; })) {
    guard.unlock();  // a benchmark holding stdout's lock must not hold up the stop
    ::flockfile(stdout);
    const bool pending = __fpending(stdout) > 0;
    if (pending) std::fflush(stdout);
    ::funlockfile(stdout);
    guard.lock();
    // A quiet benchmark is woken once a second, not 20 times: on a CPU it shares with
    // this thread each wake-up can preempt it, which the disturbance check counts.
    period = pending ? kFlushPeriod : kIdleFlushPeriod;
  }
}

}  // namespace cmh::forking

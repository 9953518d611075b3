// SPDX-License-Identifier: MIT
// StackGuard and the SIGSEGV handler (see stack_guard.hpp).
#include "engine/stack_guard.hpp"

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace cmh::engine {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kEnabled = false;  // ASan handles SIGSEGV and reports stack overflows itself
#else
constexpr bool kEnabled = true;
#endif

constexpr std::size_t kAltStackBytes = 64 * 1024;
// A frame larger than the guard page can fault well below it; a fault this far
// below the stack's low end is still the overflow.
constexpr std::uintptr_t kBelow = 1 << 20;
constexpr std::uintptr_t kAbove = 16 * 1024;

std::atomic<StackOverflowReporter> g_report{nullptr};
thread_local std::uintptr_t t_stack_low = 0;

void on_segv(int, siginfo_t* info, void*) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const std::uintptr_t low = t_stack_low;
  if (low != 0 && addr + kBelow >= low && addr < low + kAbove) {
    if (StackOverflowReporter report = g_report.load()) report();
  }
  // SA_RESETHAND restored the default action: returning re-runs the faulting
  // instruction, and the process dies of SIGSEGV as it would have.
}

}  // namespace

void set_stack_overflow_reporter(StackOverflowReporter report) {
  if (!kEnabled) return;
  g_report.store(report);
  struct sigaction sa {};
  sa.sa_sigaction = on_segv;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  ::sigaction(SIGSEGV, &sa, nullptr);
}

StackGuard::StackGuard() {
  if (!kEnabled) return;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) t_stack_low = reinterpret_cast<std::uintptr_t>(addr);
    pthread_attr_destroy(&attr);
  }
  alt_stack_ = std::malloc(kAltStackBytes);
  if (alt_stack_ == nullptr) return;
  stack_t ss{};
  ss.ss_sp = alt_stack_;
  ss.ss_size = kAltStackBytes;
  if (::sigaltstack(&ss, nullptr) != 0) {
    std::free(alt_stack_);
    alt_stack_ = nullptr;
  }
}

StackGuard::~StackGuard() {
  t_stack_low = 0;
  if (alt_stack_ == nullptr) return;
  stack_t ss{};
  ss.ss_flags = SS_DISABLE;
  ::sigaltstack(&ss, nullptr);
  std::free(alt_stack_);
}

}  // namespace cmh::engine

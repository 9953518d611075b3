// SPDX-License-Identifier: MIT
// -subwin's record of one worker's sub-windows, and the evidence that says which of
// them the thread spent entirely on its CPU.
//
// WindowProbe answers "was this thread switched out since I last asked?" once per
// sub-window. Where glibc registered rseq for the thread (glibc 2.35+, Linux 4.18+),
// the kernel answers it: the thread's rseq_cs word is pointed at a descriptor whose
// code range is empty, and the rseq ABI (include/uapi/linux/rseq.h) has the kernel set
// that word back to NULL whenever it preempts the thread, migrates it or delivers it a
// signal outside the range. Arming and checking is one store and one load per window.
// Elsewhere the thread's context switch count (getrusage(RUSAGE_THREAD), a system call)
// stands in; without either, no window is rejected.
//
// A window in which the thread was switched out is kept when the time it spent waiting
// for a CPU meanwhile is known: the run-queue wait of /proc/thread-self/schedstat, read
// only after such a window (outside both windows), is taken out of it. What is left is
// what a quiet machine would have timed, the timer tick that caused the switch included:
// rejecting the whole window took that tick's stall away, and left the estimate low by
// most of the quiet machine's tick share (bench/RESULTS.md section 14). Where the wait is
// not known the window is rejected.
//
// SubwindowLog keeps the windows in one buffer sized before the timed window opens:
// the clean ones from the front, the rejected ones from the back. A window is rejected
// when the thread was switched out during it and its wait is not known, or when it was
// switched out during the window before (the first window after a switch refills the
// caches the other task used).
#pragma once

#include <cstdint>

namespace cmh::detail {

/// A thread's clean median needs at least this many clean windows in the iteration.
inline constexpr std::uint32_t kMinCleanSubwindows = 5;

/// How a sub-window's descheduling is seen (IterationResult::subwindow_evidence).
enum class WindowEvidence : std::uint8_t { none = 0, rseq = 1, getrusage = 2 };

struct WindowProbe {
  volatile std::uint64_t* word = nullptr;   ///< this thread's rseq_cs; nullptr: no rseq
  std::uint64_t token = 0;                  ///< the descriptor's address, as armed
  std::int64_t (*switches)() noexcept = nullptr;  ///< the fallback's counter; nullptr: none
  std::int64_t last = 0;
  /// The thread's run-queue wait so far in ns (schedstat), -1 when unreadable; nullptr:
  /// not available here, and a switched-out window is rejected.
  std::int64_t (*run_delay)() noexcept = nullptr;
  std::int64_t delay_seen = -1;

  WindowEvidence evidence() const {
    return word != nullptr ? WindowEvidence::rseq
                           : switches != nullptr ? WindowEvidence::getrusage : WindowEvidence::none;
  }
  /// True when checking costs a system call: the loop then keeps it out of the next window.
  bool costly() const { return word == nullptr && switches != nullptr; }
  void arm() noexcept {
    if (word != nullptr) *word = token;
    else if (switches != nullptr) last = switches();
    if (run_delay != nullptr) delay_seen = run_delay();
  }
  /// After a check() that said switched out: the ns the thread waited for a CPU since the
  /// last such call (or arm()), -1 when unknown. A system call: outside every window.
  std::int64_t waited() noexcept {
    if (run_delay == nullptr) return -1;
    const std::int64_t now = run_delay();
    const std::int64_t before = delay_seen;
    delay_seen = now;
    return now >= 0 && before >= 0 && now >= before ? now - before : -1;
  }
  /// Was the thread switched out since arm() or the last check? Re-arms.
  bool check() noexcept {
    if (word != nullptr) {
      const bool out = *word != token;
      *word = token;
      return out;
    }
    if (switches != nullptr) {
      const std::int64_t now = switches();
      const bool out = now != last;
      last = now;
      return out;
    }
    return false;
  }
  /// Leaves the rseq word as glibc expects it between critical sections: NULL.
  void disarm() noexcept {
    if (word != nullptr && *word == token) *word = 0;
  }
};

/// The calling thread's probe: rseq where registered, else getrusage, else none.
/// Out of line (engine/window_probe.cpp); called once per iteration by -subwin's loop.
WindowProbe this_thread_window_probe() noexcept;

/// The calling thread's run-queue wait so far, in ns (the second field of
/// /proc/thread-self/schedstat); -1 where unreadable. Out of line (engine/cpu_window.cpp).
std::int64_t thread_run_delay_ns() noexcept;

struct SubwindowLog {
  double* buffer = nullptr;
  std::uint32_t capacity = 0;
  std::uint32_t clean = 0;     ///< at buffer[0, clean)
  std::uint32_t rejected = 0;  ///< at buffer[capacity - rejected, capacity)
  std::uint32_t corrected = 0; ///< of the clean ones, switched out and kept without their wait
  bool after_switch = false;   ///< the last window (recorded or not) saw a switch
  /// The clean windows' time and calls: their mean per call is clean_ns / clean_calls,
  /// weighted by calls. Windows differ in calls (the chunk halves after a long one), and a
  /// short one holding a timer tick would weigh as much as a long one in a plain mean of
  /// per-call values, though a quiet machine spreads that tick over a full chunk.
  double clean_ns = 0;
  double clean_calls = 0;

  /// One window of `per_call` ns per call over `calls` calls; `switched`: the thread was
  /// switched out in it; `wait_removed`: and `per_call` is without the time it waited for
  /// a CPU.
  void add(double per_call, bool switched, bool wait_removed = false, double calls = 1) noexcept {
    const bool reject = (switched && !wait_removed) || after_switch;
    after_switch = switched;
    if (clean + rejected >= capacity) return;
    if (reject) {
      buffer[capacity - 1 - rejected++] = per_call;
    } else {
      buffer[clean++] = per_call;
      corrected += switched ? 1 : 0;
      clean_ns += per_call * calls;
      clean_calls += calls;
    }
  }
  /// A chunk too short to record: only its evidence counts, for the window after it.
  void skip(bool switched) noexcept { after_switch = after_switch || switched; }
};

}  // namespace cmh::detail

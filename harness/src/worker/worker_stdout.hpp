// SPDX-License-Identifier: MIT
// The fork worker's stdout: block-buffered, as any process writing to a pipe or a
// file is (and as `-f 0 > file` is), so a benchmark that prints a lot costs one
// write(2) per 64 KiB rather than one per line: that per-line write was 90 % of
// the CPU of a chatty fork (bench/RESULTS.md, "fork output"). The lines still reach
// the host promptly and where they belong:
//  - before every frame the worker sends (flush()), so output written during an
//    iteration is in the pipe before that iteration's result;
//  - by a flusher thread: every kFlushPeriod while the benchmark keeps printing,
//    after at most kIdleFlushPeriod when it prints after a quiet spell, so output
//    is still seen live and is in the tail when the watchdog kills a hang;
//  - on a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM): what
//    the buffer holds is written raw with write(2) before the signal goes on to
//    its previous handler or default action, so a crash keeps its last lines.
// Only _exit(), quick_exit() and SIGKILL can lose output written since the last flush.
// stderr stays unbuffered, as it is everywhere.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace cmh::forking {

inline constexpr auto kFlushPeriod = std::chrono::milliseconds(50);
inline constexpr auto kIdleFlushPeriod = std::chrono::milliseconds(1000);

class WorkerStdout {
 public:
  /// Sets the buffering, installs the fatal-signal flush and starts the flusher.
  WorkerStdout();
  /// Stops the flusher and flushes.
  ~WorkerStdout();
  WorkerStdout(const WorkerStdout&) = delete;
  WorkerStdout& operator=(const WorkerStdout&) = delete;

  /// What the benchmark wrote so far goes to the host now.
  static void flush() noexcept;

 private:
  void flusher();

  std::mutex lock_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cmh::forking

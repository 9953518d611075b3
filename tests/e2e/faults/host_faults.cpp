// SPDX-License-Identifier: MIT
// Benchmarks that attack the host rather than the fork (tests/e2e/host_*.py,
// issue 16): each does one thing a hostile or careless benchmark does, so that
// the host's handling of it can be checked end to end. Host.ok is the control.
#include <cmh/cmh.hpp>
#include <cmh/profiler_registration.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

volatile std::uintptr_t g_null_address = 0;

bool first_call() {
  static std::atomic<bool> done{false};
  return !done.exchange(true);
}

/// The fork's results channel, from its own command line (--cmh-fork-worker=<fd>).
int channel_fd() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string arg;
  while (std::getline(in, arg, '\0'))
    if (arg.rfind("--cmh-fork-worker=", 0) == 0) return std::atoi(arg.c_str() + 18);
  return -1;
}

/// Recursion without end; the array and the use after the call keep every frame.
int recurse(int depth) {
  volatile char frame[256];
  frame[0] = static_cast<char>(depth);
  if (depth < 0) return 0;  // never (the stack ends first); keeps -Winfinite-recursion quiet
  return recurse(depth + 1) + frame[0];
}

}  // namespace

/// Holds the host before it spawns each fork (ExternalProfiler::before_trial runs in
/// the host): creates $CMH_HOLD_FILE, then waits until the test removes it, so that a
/// signal can be sent while nothing has run yet (host_signals.py).
struct HoldProfiler : cmh::ExternalProfiler {
  void before_trial(const cmh::BenchmarkParams&) override {
    const char* path = std::getenv("CMH_HOLD_FILE");
    if (path == nullptr) return;
    if (std::FILE* f = std::fopen(path, "w")) std::fclose(f);
    for (int waited_ms = 0; waited_ms < 60'000 && ::access(path, F_OK) == 0; waited_ms += 10)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::vector<cmh::ScalarResult> after_trial(const cmh::BenchmarkParams&, const cmh::ForkResult&, long,
                                             std::string_view, std::string_view) override {
    return {};
  }
};
CMH_PROFILER(HoldProfiler, "hold", "Test profiler: holds the host before each fork until $CMH_HOLD_FILE is removed");

CMH_OPTIONS(Host, cmh::mode::throughput);

CMH_BENCHMARK(Host, ok, cmh::Blackhole& bh) { bh.consume(std::chrono::steady_clock::now().time_since_epoch().count()); }

CMH_BENCHMARK(Host, exit0, cmh::Blackhole& bh) {
  std::exit(0);
  bh.consume(1);
}

CMH_BENCHMARK(Host, daemon, cmh::Blackhole& bh) {
  // Leaves a daemonised sleeper behind: fork, setsid, fork again, the middle one exits,
  // so the sleeper is in its own session and process group, re-parented away.
  if (first_call()) {
    const pid_t middle = ::fork();
    if (middle == 0) {
      ::setsid();
      if (::fork() == 0) {
        const char* pid_file = std::getenv("CMH_DAEMON_PID_FILE");
        if (pid_file) {  // written whole, then renamed: the benchmark waits for the name
          const std::string partial = std::string(pid_file) + ".partial";
          if (std::FILE* f = std::fopen(partial.c_str(), "w")) {
            std::fprintf(f, "%d\n", static_cast<int>(::getpid()));
            std::fclose(f);
            std::rename(partial.c_str(), pid_file);
          }
        }
        for (int fd = 0; fd < 64; ++fd) ::close(fd);  // a proper daemon: holds none of the fork's pipes
        for (;;) ::pause();
      }
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(middle, &status, 0);
    // Until the sleeper has said its pid, cmh might stop it before it exists for the test:
    // on a loaded machine the grandchild can be that slow to run (a minute bounds a hang).
    if (const char* pid_file = std::getenv("CMH_DAEMON_PID_FILE"))
      for (int waited_ms = 0; waited_ms < 60'000 && ::access(pid_file, F_OK) != 0; waited_ms += 5)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  bh.consume(1);
}

CMH_BENCHMARK(Host, heap_limit_line, cmh::Blackhole& bh) {
  // A benchmark's own text that happens to mention the allocator's words, then a crash:
  // a segfault, not "out of memory".
  std::fputs("note: heap limit reached in my own data structure\n", stderr);
  std::fflush(stderr);
  *reinterpret_cast<volatile int*>(g_null_address) = 1;
  bh.consume(1);
}

CMH_BENCHMARK(Host, chatty, cmh::Blackhole& bh) {
  // CMH_CHATTY_MB megabytes of short lines on stdout, once per fork, then quiet.
  if (first_call()) {
    const char* mb = std::getenv("CMH_CHATTY_MB");
    const long total = (mb ? std::atol(mb) : 8) << 20;
    std::string line(63, 'x');
    line += '\n';
    for (long written = 0; written < total; written += static_cast<long>(line.size()))
      std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
  }
  bh.consume(1);
}

// A long run of the letters a-e in its name, for the pathological-pattern test:
// `(a|b|c|d|e)*` repeated backtracks through every way of splitting that run.
CMH_BENCHMARK(Host, abcdeabcdeabcdeabcdeabcdeabcdeabcde, cmh::Blackhole& bh) { bh.consume(1); }

CMH_BENCHMARK(Host, close_channel, cmh::Blackhole& bh) {
  // Closes a descriptor it does not own: the harness's results channel.
  if (first_call()) ::close(channel_fd());
  bh.consume(1);
}

CMH_BENCHMARK(Host, stop_self, cmh::Blackhole& bh) {
  // Stops its own process: SIGTERM cannot act on it until SIGKILL.
  ::raise(SIGSTOP);
  bh.consume(1);
}

CMH_BENCHMARK(Host, stack_overflow, cmh::Blackhole& bh) { bh.consume(recurse(0)); }

// Output the benchmark never flushes, then the end of the process: the fork's stdout is
// block-buffered, and its last lines must still reach the failure report.
CMH_BENCHMARK(Host, print_then_segfault, cmh::Blackhole& bh) {
  std::fputs("last words before the segfault\n", stdout);
  *reinterpret_cast<volatile int*>(g_null_address) = 1;
  bh.consume(1);
}

CMH_BENCHMARK(Host, print_then_abort, cmh::Blackhole& bh) {
  std::fputs("last words before abort()\n", stdout);
  std::abort();
  bh.consume(1);
}

CMH_BENCHMARK(Host, print_then_hang, cmh::Blackhole& bh) {
  if (first_call()) std::fputs("last words before the hang\n", stdout);
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  bh.consume(1);
}

namespace {
std::atomic<int> g_iteration{0};
struct IterationCount : cmh::BenchmarkState {
  void setup_iteration() { g_iteration.fetch_add(1); }
};
}  // namespace

// One unflushed line per iteration, written during it: echoed before that iteration's result.
CMH_BENCHMARK(Host, print_per_iteration, cmh::Blackhole& bh, IterationCount&) {
  static int printed = 0;
  if (const int k = g_iteration.load(); k != printed) {
    printed = k;
    std::printf("output of iteration %d\n", k);
  }
  bh.consume(1);
}

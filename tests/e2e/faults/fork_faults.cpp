// SPDX-License-Identifier: MIT
// Purpose-built faulty benchmarks for the fork tests (tests/e2e/fork_*.py): each
// breaks its fork one particular way, so that the host's report of it can be
// checked end to end. Fault.ok is the well-behaved control, Probe.bindings
// reports what the fork's own process sees (affinity, memory policy, environment).
#include <cmh/cmh.hpp>
#include <cmh/profiler_registration.hpp>

#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

namespace {

// Read through volatile so the compiler cannot see the null pointer: a real SIGSEGV, not a trap.
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

struct Throwing : cmh::ThreadState {
  void setup_iteration(const cmh::IterationParams& ip) {
    if (ip.kind == cmh::IterationKind::measurement) throw std::logic_error("set-up refused to run");
  }
};

}  // namespace

/// An external profiler, as a perf-stat-like wrapper would be: it puts `env` in front
/// of the fork, adds a fork argument, consumes the fork's stdout (not echoed unless
/// -v EXTRA) and reports what it found there as a trial result.
struct WrapProfiler : cmh::ExternalProfiler {
  std::vector<std::string> command_prefix(const cmh::BenchmarkParams&) override {
    return {"env", "CMH_WRAPPED=yes"};
  }
  std::vector<std::string> extra_fork_args(const cmh::BenchmarkParams&) override {
    return {"-DCMH_WRAP_ARG=from-profiler"};
  }
  void before_trial(const cmh::BenchmarkParams&) override { ++trials_; }
  std::vector<cmh::ScalarResult> after_trial(const cmh::BenchmarkParams&, const cmh::ForkResult&, long pid,
                                             std::string_view out, std::string_view) override {
    double lines = 0;
    for (std::size_t at = out.find("probe-line"); at != std::string_view::npos; at = out.find("probe-line", at + 1))
      ++lines;
    return {{"wrap.probe_lines", lines, "lines", cmh::AggregationPolicy::sum},
            {"wrap.trials", static_cast<double>(trials_) * (pid > 0 ? 1 : 0), "trials", cmh::AggregationPolicy::max}};
  }
  bool allow_print_out() const override { return false; }

 private:
  int trials_ = 0;
};
CMH_PROFILER(WrapProfiler, "wrap", "Test wrapper: env in front of the fork, counts probe lines in its stdout");

CMH_OPTIONS(Fault, cmh::mode::throughput);

CMH_BENCHMARK(Fault, ok, cmh::Blackhole& bh) { bh.consume(std::chrono::steady_clock::now().time_since_epoch().count()); }

CMH_BENCHMARK(Fault, segfault, cmh::Blackhole& bh) {
  std::puts("about to dereference a null pointer");
  std::fflush(stdout);
  *reinterpret_cast<volatile int*>(g_null_address) = 1;
  bh.consume(1);
}

CMH_BENCHMARK(Fault, abort, cmh::Blackhole& bh) {
  std::fputs("calling abort()\n", stderr);
  std::abort();
  bh.consume(1);
}

CMH_BENCHMARK(Fault, exit3, cmh::Blackhole& bh) {
  std::puts("calling exit(3)");
  std::exit(3);
  bh.consume(1);
}

CMH_BENCHMARK(Fault, quick_exit0, cmh::Blackhole& bh) {
  ::_exit(0);
  bh.consume(1);
}

CMH_BENCHMARK(Fault, throws, cmh::Blackhole& bh) {
  bh.consume(1);
  throw std::runtime_error("the benchmark failed on purpose");
}

CMH_BENCHMARK(Fault, setup_throws, cmh::Blackhole& bh, Throwing&) { bh.consume(1); }

CMH_BENCHMARK(Fault, hang, cmh::Blackhole& bh) {
  // Never returns, and ignores the harness's stop flag: only the host's watchdog ends it.
  for (;;) std::this_thread::sleep_for(1h);
  bh.consume(1);
}

CMH_BENCHMARK(Fault, stray, cmh::Blackhole& bh) {
  // A thread that ignores its stop token, joined by a static destructor at exit: the
  // fork finishes every iteration and then never exits.
  static std::jthread stray([] {
    for (;;) std::this_thread::sleep_for(1h);
  });
  bh.consume(&stray);
}

CMH_BENCHMARK(Fault, oom, cmh::Blackhole& bh) {
  // Under -Xmx the bundled allocator refuses; without a limit, give up at 512 MiB
  // so that a missing limit is a clear failure and not a machine out of memory.
  static std::vector<std::unique_ptr<char[]>> held;
  constexpr std::size_t kChunk = 1 << 20;
  if (held.size() * kChunk >= (std::size_t{512} << 20)) throw std::logic_error("no heap limit: 512 MiB allocated");
  held.push_back(std::make_unique<char[]>(kChunk));
  std::memset(held.back().get(), 1, kChunk);
  bh.consume(held.back().get());
}

CMH_BENCHMARK(Fault, crash_second, cmh::Blackhole& bh) {
  // Counts its forks in the file named by CMH_FAULT_COUNTER; the second one crashes.
  static const bool crash = [] {
    const char* path = std::getenv("CMH_FAULT_COUNTER");
    if (!path) return false;
    int forks = 0;
    if (std::FILE* in = std::fopen(path, "r")) {
      if (std::fscanf(in, "%d", &forks) != 1) forks = 0;
      std::fclose(in);
    }
    if (std::FILE* out = std::fopen(path, "w")) {
      std::fprintf(out, "%d\n", forks + 1);
      std::fclose(out);
    }
    return forks + 1 == 2;
  }();
  if (crash) *reinterpret_cast<volatile int*>(g_null_address) = 1;
  bh.consume(1);
}

CMH_BENCHMARK(Fault, garbage, cmh::Blackhole& bh) {
  if (first_call()) {
    // 64 MiB of binary noise on each stream, newlines included, then a clean last line.
    std::vector<unsigned char> noise(1 << 20);
    for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
    for (int i = 0; i < 64; ++i) {
      std::fwrite(noise.data(), 1, noise.size(), stdout);
      std::fwrite(noise.data(), 1, noise.size(), stderr);
    }
    std::printf("\nlast line of stdout\n");
    std::fprintf(stderr, "\nlast line of stderr\n");
    std::fflush(stdout);
  }
  bh.consume(1);
}

CMH_BENCHMARK(Fault, corrupt, cmh::Blackhole& bh) {
  if (first_call()) {
    const char junk[] = "this is not a frame";
    [[maybe_unused]] ssize_t n = ::write(channel_fd(), junk, sizeof junk);
  }
  bh.consume(1);
}

CMH_BENCHMARK(Probe, bindings, cmh::Blackhole& bh) {
  // Reports, once, what this process sees, into the file named by CMH_PROBE_FILE.
  if (first_call()) {
    std::FILE* out = std::fopen(std::getenv("CMH_PROBE_FILE") ? std::getenv("CMH_PROBE_FILE") : "/dev/null", "w");
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    sched_getaffinity(0, sizeof cpus, &cpus);
    std::string cpu_list;
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &cpus)) cpu_list += (cpu_list.empty() ? "" : ",") + std::to_string(c);
    int mode = -1;
    unsigned long nodes[16] = {};
    const long rc = syscall(SYS_get_mempolicy, &mode, nodes, sizeof nodes * 8, nullptr, 0);
    const char* foo = std::getenv("FOO");
    const char* alloc = std::getenv("CMH_ALLOC");
    const char* wrapped = std::getenv("CMH_WRAPPED");
    const char* wrap_arg = std::getenv("CMH_WRAP_ARG");
    std::fprintf(out, "cpus=%s\nmempolicy=%d\nnodemask=%lx\nmempolicy_rc=%ld\nFOO=%s\nCMH_ALLOC=%s\npid=%d\n",
                 cpu_list.c_str(), mode, nodes[0], rc, foo ? foo : "<unset>", alloc ? alloc : "<unset>",
                 static_cast<int>(getpid()));
    std::fprintf(out, "CMH_WRAPPED=%s\nCMH_WRAP_ARG=%s\n", wrapped ? wrapped : "<unset>",
                 wrap_arg ? wrap_arg : "<unset>");
    std::fclose(out);
    std::puts("probe-line: the probe ran");
    std::fflush(stdout);
  }
  bh.consume(1);
}

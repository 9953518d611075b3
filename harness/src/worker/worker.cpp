// SPDX-License-Identifier: MIT
// The fork worker: what this executable does when the host started it with the
// hidden --cmh-fork-worker=<fd> option. It says hello (protocol version, pid),
// reads its plan, creates the internal profilers the plan names, runs the trial
// with engine::run_trial, and sends every iteration, failure and the finish as
// frames. It never prints: the host prints everything. Its own stdout/stderr
// (the benchmark's output) are pipes the host reads.
#include "worker/worker.hpp"

#include <cmh/allocator_api.hpp>
#include <cmh/param.hpp>  // detail::demangle
#include <cmh/registry.hpp>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "engine/stack_guard.hpp"
#include "engine/trial.hpp"
#include "model/allocator_state.hpp"
#include "profiling/profiler_factory.hpp"
#include "wire/messages.hpp"
#include "wire/worker_process.hpp"
#include "worker/worker_stdout.hpp"

namespace cmh::forking {

namespace {

/// Writes a whole frame; on failure says so on stderr and ends the process: the
/// host is gone (nobody to report to) or the benchmark closed or replaced fd 3.
/// Never allocates (the OOM hook calls it from inside a failing malloc).
void write_frame_or_exit(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n > 0) {
      data += n;
      size -= static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      constexpr char kLost[] =
          "cmh fork worker: the results channel failed (the benchmark closed or replaced its descriptor?)\n";
      [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, kLost, sizeof kLost - 1);
      ::_exit(kChannelLostExitCode);
    }
  }
}

/// The channel to the host, blocking. Frames from the OOM hook (any thread) and
/// from the engine's observer are serialised by one lock, taken only around the
/// write(2)s: encoding may allocate, and so may end in the OOM hook.
class Channel {
 public:
  explicit Channel(int fd) : fd_(fd) {}

  void send(const Message& message) {
    const std::string bytes = encode_message(message);
    WorkerStdout::flush();  // what the benchmark printed goes before the report line it precedes
    std::lock_guard<std::mutex> lock(write_lock_);
    write_frame_or_exit(fd_, bytes.data(), bytes.size());
  }

  /// From the allocator's OOM hook: no allocation.
  void send_out_of_memory(int heap_limit, const char* line) noexcept {
    char frame[512];
    const std::size_t n = encode_out_of_memory_frame(frame, sizeof frame, heap_limit != 0, line);
    std::lock_guard<std::mutex> lock(write_lock_);
    if (fd_ >= 0) write_frame_or_exit(fd_, frame, n);
  }

  /// Blocks until one whole frame arrived; nullopt at end of stream.
  std::optional<Frame> receive() {
    char buf[65536];
    while (true) {
      if (auto frame = decoder_.next()) return frame;
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      decoder_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    }
  }

  void close() {
    std::lock_guard<std::mutex> lock(write_lock_);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
  FrameDecoder decoder_;
  std::mutex write_lock_;
};

Channel* g_oom_channel = nullptr;  ///< the worker's channel while it runs, for the OOM hook

// The stack-overflow report, encoded before anything can overflow, written from the
// SIGSEGV handler without the channel's lock (a crash path: at worst it interleaves).
int g_overflow_fd = -1;
std::string* g_overflow_frame = nullptr;

void on_stack_overflow() noexcept {
  if (g_overflow_fd < 0 || g_overflow_frame == nullptr) return;
  const char* p = g_overflow_frame->data();
  std::size_t left = g_overflow_frame->size();
  while (left > 0) {
    const ssize_t n = ::write(g_overflow_fd, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

void arm_stack_overflow_report(int fd) {
  Failure f;
  f.kind = FailureKind::signal;
  f.signal = SIGSEGV;
  f.message =
      "forked process failed: stack overflow (signal 11, Segmentation fault, in the guard page below a benchmark "
      "thread's stack: a recursion too deep, or a large array on the stack?)";
  static std::string frame = encode_message(BenchmarkError{f});
  g_overflow_frame = &frame;
  g_overflow_fd = fd;
  engine::set_stack_overflow_reporter(&on_stack_overflow);
}

void on_out_of_memory(int heap_limit, const char* line) {
  if (Channel* c = g_oom_channel) c->send_out_of_memory(heap_limit, line);
}

/// Turns the engine's observer calls into frames.
class FrameObserver final : public engine::TrialObserver {
 public:
  explicit FrameObserver(Channel& channel) : channel_(channel) {}

  void iteration_started(const IterationParams& ip, int index) override {
    channel_.send(IterationStarted{ip.kind, index, bulk_});
  }
  void iteration_finished(const IterationResult& result) override { channel_.send(IterationFinished{result}); }
  void iteration_failed(const IterationParams& ip, int index, const Failure& failure) override {
    failure_sent_ = true;
    channel_.send(IterationFailed{ip.kind, index, failure, bulk_});
  }
  void workers_pinned(const Pinning& pinning) override { channel_.send(Pinned{pinning}); }
  /// A failure of the current trial went out on an iteration frame.
  bool failure_sent() const { return failure_sent_; }
  /// The frames that follow belong to bulk warmup `index` (-1: the plan's own trial).
  void set_bulk(int index) {
    bulk_ = index;
    failure_sent_ = false;
  }

 private:
  Channel& channel_;
  bool failure_sent_ = false;
  int bulk_ = -1;
};

Failure worker_failure(FailureKind kind, std::string message, std::string type = {}) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  f.exception_type = std::move(type);
  return f;
}

/// Runs one trial of `plan` with its own internal profilers; returns the failure to
/// report outside any iteration, if any.
std::optional<Failure> run_one(const BenchmarkParams& plan, FrameObserver& observer) {
  const BenchmarkDefinition* def = find_benchmark(plan.benchmark);
  if (!def)
    return worker_failure(FailureKind::other, "benchmark '" + plan.benchmark + "' is not in this executable");
  profiling::ProfilerSet profilers;
  try {
    profilers = profiling::create_profilers(plan.profilers, profiling::ProfilerSide::in_process);
  } catch (const std::exception& e) {
    return worker_failure(FailureKind::other, std::string("profiler set-up in the fork failed: ") + e.what());
  }
  try {
    auto failure = engine::run_trial(*def, plan, profilers.internal, observer);
    if (failure && !observer.failure_sent()) return failure;
  } catch (const std::exception& e) {
    // The engine reports benchmark exceptions itself; this is the harness failing.
    return worker_failure(FailureKind::exception, e.what(), detail::demangle(typeid(e).name()));
  }
  return std::nullopt;
}

/// -wm BULK / -wmb: the warmup of each bulk plan first (JMH's WARMUP actions, each a
/// trial of its own), then the plan. A bulk warmup that fails is reported on its
/// iteration frame and the fork goes on, as JMH's does; the host stops it under -foe.
std::optional<Failure> run_plan(const PlanMessage& message, FrameObserver& observer) {
  for (std::size_t i = 0; i < message.bulk_warmups.size(); ++i) {
    observer.set_bulk(static_cast<int>(i));
    if (auto failure = run_one(message.bulk_warmups[i], observer)) {
      const IterationParams& ip = message.bulk_warmups[i].warmup;
      observer.iteration_failed(ip, 1, *failure);
    }
  }
  observer.set_bulk(-1);
  return run_one(message.plan, observer);
}

int run_worker(int fd) {
  Channel channel(fd);
  channel.send(Handshake{kProtocolVersion, static_cast<std::int64_t>(::getpid()), model::detect_allocator_state()});
  std::optional<Frame> frame;
  PlanMessage plan;
  try {
    frame = channel.receive();
    if (!frame || frame->type != FrameType::plan) {
      std::fprintf(stderr, "cmh fork worker: no plan from the host\n");
      return 1;
    }
    plan = std::get<PlanMessage>(decode_message(*frame));
  } catch (const ProtocolError& e) {
    std::fprintf(stderr, "cmh fork worker: bad plan from the host: %s\n", e.what());
    return 1;
  }
  FrameObserver observer(channel);
  g_oom_channel = &channel;
  arm_stack_overflow_report(fd);
  const WorkerStdout stdout_buffering;  // after the SIGSEGV handler above, which its crash flush chains to
  const engine::StackGuard guard;  // the main thread runs benchmark code too (set-up, single-threaded parts)
  const AllocatorApi& allocator = linked_allocator();  // null entries without the bundled allocator
  if (allocator.set_oom_hook != nullptr) allocator.set_oom_hook(&on_out_of_memory);
  const char* alloc_problem = nullptr;
  if (allocator.backend != nullptr) (void)allocator.backend(&alloc_problem);
  if (alloc_problem != nullptr)  // -XX:Allocator: the preload did not take effect
    channel.send(BenchmarkError{worker_failure(FailureKind::other, alloc_problem)});
  else if (auto failure = run_plan(plan, observer))
    channel.send(BenchmarkError{*failure});
  std::fflush(stderr);
  channel.send(Finish{});  // flushes stdout first
  channel.close();
  return 0;
}

}  // namespace

std::optional<int> maybe_run_worker(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]).substr(0, kWorkerOption.size()) != kWorkerOption) return std::nullopt;
  const std::string_view value = std::string_view(argv[1]).substr(kWorkerOption.size());
  int fd = -1;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), fd);
  // Typed by hand it names some descriptor of a shell (0, 1, a file): only the
  // socket the host passes, above the standard descriptors, is a results channel.
  struct stat st {};
  if (argc != 2 || ec != std::errc() || ptr != value.data() + value.size() || fd <= 2 || ::fstat(fd, &st) != 0 ||
      !S_ISSOCK(st.st_mode)) {
    std::fprintf(stderr,
                 "Error parsing command line:\n %s is internal: the cmh host starts fork workers itself, with a "
                 "socket as that descriptor\n",
                 argv[1]);
    return 1;
  }
  // Processes the benchmark starts must not hold the channel open after the fork exits.
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  return run_worker(fd);
}

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// The fork worker: what this executable does when the host started it with the
// hidden --cmh-fork-worker=<fd> option. It says hello (protocol version, pid),
// reads its plan, creates the internal profilers the plan names, runs the trial
// with engine::run_trial, and sends every iteration, failure and the finish as
// frames. It never prints: the host prints everything. Its own stdout/stderr
// (the benchmark's output) are pipes the host reads.
#include <cmh/registry.hpp>

#include <cxxabi.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "fork/fork_runner.hpp"
#include "fork/messages.hpp"
#include "model/allocator_state.hpp"
#include "profiling/profiler_factory.hpp"

namespace cmh::forking {

namespace {

constexpr std::string_view kWorkerOption = "--cmh-fork-worker=";

/// The channel to the host, blocking. If the host is gone there is nobody to
/// report to, so a failed write ends the process at once.
class Channel {
 public:
  explicit Channel(int fd) : fd_(fd) {}

  void send(const Message& message) {
    const std::string bytes = encode_message(message);
    std::string_view rest = bytes;
    while (!rest.empty()) {
      const ssize_t n = ::write(fd_, rest.data(), rest.size());
      if (n > 0) {
        rest.remove_prefix(static_cast<std::size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        ::_exit(3);
      }
    }
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
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
  FrameDecoder decoder_;
};

/// Turns the engine's observer calls into frames.
class FrameObserver final : public engine::TrialObserver {
 public:
  explicit FrameObserver(Channel& channel) : channel_(channel) {}

  void iteration_started(const IterationParams& ip, int index) override {
    channel_.send(IterationStarted{ip.kind, index});
  }
  void iteration_finished(const IterationResult& result) override { channel_.send(IterationFinished{result}); }
  void iteration_failed(const IterationParams& ip, int index, const Failure& failure) override {
    failure_sent_ = true;
    channel_.send(IterationFailed{ip.kind, index, failure});
  }
  bool failure_sent() const { return failure_sent_; }

 private:
  Channel& channel_;
  bool failure_sent_ = false;
};

std::string demangled(const char* name) {
  int status = 0;
  char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && text ? text : name;
  std::free(text);
  return out;
}

Failure worker_failure(FailureKind kind, std::string message, std::string type = {}) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  f.exception_type = std::move(type);
  return f;
}

/// Runs the plan; returns the failure to report outside any iteration, if any.
std::optional<Failure> run_plan(const BenchmarkParams& plan, FrameObserver& observer) {
  const BenchmarkDefinition* def = find_benchmark(plan.benchmark);
  if (!def)
    return worker_failure(FailureKind::other, "benchmark '" + plan.benchmark + "' is not in this executable");
  std::vector<std::unique_ptr<Profiler>> owned;
  std::vector<InternalProfiler*> internal;
  try {
    for (const auto& spec : plan.profilers) {
      if (!profiling::resolve_profiler(spec).info->internal) continue;
      owned.push_back(profiling::create_profiler(spec));
      if (auto* p = dynamic_cast<InternalProfiler*>(owned.back().get())) internal.push_back(p);
    }
  } catch (const std::exception& e) {
    return worker_failure(FailureKind::other, std::string("profiler set-up in the fork failed: ") + e.what());
  }
  try {
    auto failure = engine::run_trial(*def, plan, internal, observer);
    if (failure && !observer.failure_sent()) return failure;
  } catch (const std::exception& e) {
    // The engine reports benchmark exceptions itself; this is the harness failing.
    return worker_failure(FailureKind::exception, e.what(), demangled(typeid(e).name()));
  }
  return std::nullopt;
}

int run_worker(int fd) {
  // Lines reach the host (and its echo) as they are written, not at exit.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Channel channel(fd);
  channel.send(Handshake{kProtocolVersion, static_cast<std::int64_t>(::getpid()), model::detect_allocator_state()});
  std::optional<Frame> frame;
  BenchmarkParams plan;
  try {
    frame = channel.receive();
    if (!frame || frame->type != FrameType::plan) {
      std::fprintf(stderr, "cmh fork worker: no plan from the host\n");
      return 1;
    }
    plan = std::get<PlanMessage>(decode_message(*frame)).plan;
  } catch (const ProtocolError& e) {
    std::fprintf(stderr, "cmh fork worker: bad plan from the host: %s\n", e.what());
    return 1;
  }
  FrameObserver observer(channel);
  if (auto failure = run_plan(plan, observer)) channel.send(BenchmarkError{*failure});
  std::fflush(stdout);
  std::fflush(stderr);
  channel.send(Finish{});
  channel.close();
  return 0;
}

}  // namespace

std::optional<int> maybe_run_worker(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]).substr(0, kWorkerOption.size()) != kWorkerOption) return std::nullopt;
  const std::string_view value = std::string_view(argv[1]).substr(kWorkerOption.size());
  int fd = -1;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), fd);
  if (argc != 2 || ec != std::errc() || ptr != value.data() + value.size() || fd < 0 ||
      ::fcntl(fd, F_GETFD) < 0) {
    std::fprintf(stderr, "%s is internal: the cmh host starts fork workers itself\n", argv[1]);
    return 1;
  }
  // Processes the benchmark starts must not hold the channel open after the fork exits.
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  return run_worker(fd);
}

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// run_fork(): one fork from spawn to reaping, on the host (see fork_runner.hpp).
//
// A single poll() loop watches the results channel, the fork's stdout and
// stderr and its pidfd, with no threads. Each decoded message goes to the
// ProtocolTracker (protocol_tracker.hpp), which says whether it is legal and in
// which phase the fork now is. A watchdog bounds every phase: the
// start-up (spawn to handshake) its own bound (start_bound.hpp; a fork that misses
// it has its stacks taken before it is stopped), an iteration its time plus -to,
// anything else between the handshake and "finish" -to, and after "finish" the
// process has shutdown_grace() to exit. Whatever stops a fork
// (the watchdog, a protocol error, the user's Ctrl-C) has the ForkSupervisor
// (supervisor.hpp) send SIGTERM to its process group, then SIGKILL after its
// grace; the child is always reaped.
#include "fork/fork_runner.hpp"

#include <cmh/common/self_executable.hpp>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string_view>
#include <utility>

#include "engine/pinning.hpp"
#include "fork/adopted.hpp"
#include "fork/classify.hpp"
#include "fork/fork_args.hpp"
#include "fork/oom_watch.hpp"
#include "fork/output_capture.hpp"
#include "fork/protocol_tracker.hpp"
#include "fork/spawner.hpp"
#include "fork/stack_snapshot.hpp"
#include "fork/start_bound.hpp"
#include "fork/supervisor.hpp"
#include <cmh/machine/topology.hpp>
#include "model/interrupt.hpp"
#include "wire/messages.hpp"
#include "wire/worker_process.hpp"

namespace cmh::forking {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kShutdownGrace = 3s;   ///< "finish" -> the process must have exited (at least)
constexpr int kShutdownGraceStartups = 10;  ///< ... or this many times the fork's start-up
// A stream that is no longer echoed is read in batches: after a short read the
// host leaves it for this long, so that a fork writing line by line fills the
// (enlarged) pipe instead of waking the host for every line.
constexpr auto kBatchPause = 2ms;
constexpr int kPipeBytes = 1 << 20;


std::string describe_time(Nanos t) {
  using namespace std::chrono;
  const auto ns = t.count();
  if (ns != 0 && ns % duration_cast<Nanos>(1min).count() == 0) return std::to_string(ns / 60'000'000'000) + " min";
  if (ns != 0 && ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + " s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + " ms";
  if (ns % 1'000 == 0) return std::to_string(ns / 1'000) + " us";
  return std::to_string(ns) + " ns";
}

const char* kind_text(IterationKind kind) { return kind == IterationKind::warmup ? "warmup" : "measurement"; }

std::string shell_quote(std::string_view s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") ==
                        std::string_view::npos)
    return std::string(s);
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// t + d, saturating: a timeout from code or the command line may mean "forever".
Clock::time_point later(Clock::time_point t, Nanos d) {
  const Nanos room = std::chrono::duration_cast<Nanos>(Clock::time_point::max() - t);
  return d >= room ? Clock::time_point::max() : t + std::chrono::duration_cast<Clock::duration>(d);
}

Failure make_failure(FailureKind kind, std::string message) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  return f;
}

/// This executable, which a fork runs again; the link itself when it cannot be read.
std::string self_executable() {
  const std::string path = common::self_executable_path();
  return path.empty() ? std::string("/proc/self/exe") : path;
}

class ForkSession {
 public:
  ForkSession(const ForkRequest& request, ForkObserver& observer)
      : request_(request),
        plan_(*request.plan),
        observer_(observer),
        tracker_(plan_, request.bulk_warmups, request.fail_on_error),
        out_("stdout", request.tail_lines, echo_sink(false), !request.external_profilers.empty()),
        err_("stderr", request.tail_lines, echo_sink(true), !request.external_profilers.empty()) {
    result_.index = request.index;
    result_.warmup_fork = request.warmup_fork;
  }

  ForkSession(const ForkSession&) = delete;
  ForkSession& operator=(const ForkSession&) = delete;

  ForkResult run() {
    if (interrupt::signal() != 0) {
      result_.failure = make_failure(FailureKind::interrupted, "interrupted before the fork started");
      return std::move(result_);
    }
    if (!start()) return std::move(result_);
    loop();
    out_.finish();
    err_.finish();
    supervisor_.release();
    result_.failure = decide_failure();
    run_after_trial();
    if (result_.failure) {
      result_.failure->stdout_tail = out_.tail();
      result_.failure->stderr_tail = err_.tail();
    }
    return std::move(result_);
  }

 private:
  OutputCapture::LineSink echo_sink(bool is_stderr) {
    bool allowed = true;
    for (ExternalProfiler* p : request_.external_profilers)
      allowed = allowed && (is_stderr ? p->allow_print_err() : p->allow_print_out());
    if (!allowed && !request_.echo_all_output) return nullptr;
    return [this, is_stderr](std::string_view line) { observer_.fork_output(is_stderr, line); };
  }

  bool start() {
    std::vector<std::string> args = plan_.fork_args;
    std::vector<std::string> prefix;
    try {
      for (ExternalProfiler* p : request_.external_profilers) {
        for (auto& a : p->extra_fork_args(plan_)) args.push_back(std::move(a));
        for (auto& w : p->command_prefix(plan_)) prefix.push_back(std::move(w));
      }
      for (ExternalProfiler* p : request_.external_profilers) p->before_trial(plan_);
    } catch (const std::exception& e) {
      result_.failure = make_failure(FailureKind::spawn, std::string("a profiler failed before the fork: ") + e.what());
      return false;
    }
    ForkSettings settings;
    try {
      settings = parse_fork_args(args);
    } catch (const ForkArgError& e) {
      result_.failure = make_failure(FailureKind::spawn, e.what());
      return false;
    }

    const std::string executable = request_.executable.empty() ? self_executable() : request_.executable;
    SpawnSpec spec;
    // Without a wrapper, exec the image this host runs, even if the file was rebuilt meanwhile.
    spec.path = prefix.empty() ? "/proc/self/exe" : find_in_path(prefix.front());
    if (spec.path.empty()) {
      result_.failure = make_failure(FailureKind::spawn, "profiler command '" + prefix.front() + "' not found in PATH");
      return false;
    }
    spec.argv = prefix;
    spec.argv.push_back(executable);
    spec.argv.push_back(std::string(kWorkerOption) + std::to_string(kWorkerChannelFd));
    std::vector<std::pair<std::string, std::string>> env_overrides = settings.environment;
    if (!settings.allocator_flags.empty()) env_overrides.emplace_back("CMH_ALLOC", allocator_env_value(settings));
    if (!settings.preload.empty())
      env_overrides.emplace_back("LD_PRELOAD", preload_env_value(settings, ::getenv("LD_PRELOAD")));
    spec.env = environment_with(env_overrides);
    spec.cpus = settings.cpus;
    spec.memory_policy = settings.memory_policy;
    spec.memory_nodes = settings.memory_nodes;
    print_command(spec, env_overrides, settings);
    start_bound_ = fork_start_bound(request_.start_timeout, request_.host_startup, !prefix.empty(), env_overrides);
    observer_.verbose(start_bound_.explain());

    oom_kills_before_ = oom_kill_count();
    spawn_time_ = Clock::now();
    try {
      supervisor_.adopt(spawn_child(spec));
    } catch (const SpawnError& e) {
      result_.failure = make_failure(FailureKind::spawn, e.what());
      return false;
    }
    result_.pid = child_.pid;
    // Room for batched reads of a chatty fork (best effort: the system's pipe-max-size rules).
    for (int fd : {child_.out, child_.err})
      if (fd >= 0) ::fcntl(fd, F_SETPIPE_SZ, kPipeBytes);
    last_progress_ = spawn_time_;
    if (interrupt::signal() != 0) ::kill(-child_.pid, SIGTERM);  // the signal came while we were spawning
    // The plan goes out at once: the worker reads it right after its handshake.
    send(encode_message(PlanMessage{plan_, request_.bulk_warmups ? *request_.bulk_warmups : std::vector<BenchmarkParams>{}}));
    return true;
  }

  void print_command(const SpawnSpec& spec, const std::vector<std::pair<std::string, std::string>>& env,
                     const ForkSettings& settings) {
    std::string line = "# Fork command:";
    for (const auto& [name, value] : env) line += " " + name + "=" + shell_quote(value);
    for (const auto& a : spec.argv) line += " " + shell_quote(a);
    observer_.verbose(line);
    if (settings.has_binding()) {
      std::string b = "# Fork bindings (applied by cmh before exec):";
      for (const auto& a : settings.binding_args) b += " " + a;
      if (!settings.cpus.empty()) b += ", CPUs " + format_int_list(settings.cpus);
      if (!settings.memory_nodes.empty()) b += ", memory nodes " + format_int_list(settings.memory_nodes);
      observer_.verbose(b);
    }
  }

  void send(const std::string& bytes) {
    std::string_view rest = bytes;
    while (!rest.empty() && child_.channel >= 0) {
      const ssize_t n = ::send(child_.channel, rest.data(), rest.size(), MSG_NOSIGNAL);
      if (n > 0) {
        rest.remove_prefix(static_cast<std::size_t>(n));
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        pollfd p{child_.channel, POLLOUT, 0};
        ::poll(&p, 1, 100);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        return;  // the fork is gone; its exit status tells why
      }
    }
  }

  // ---- the event loop ----

  void loop() {
    char buf[65536];
    while (true) {
      const auto now = Clock::now();
      check_watchdog(now);
      if (supervisor_.drain_expired(now) && (child_.out >= 0 || child_.err >= 0 || child_.channel >= 0)) {
        // Something the fork started (and moved out of its process group) still holds
        // its pipes: stop listening rather than wait for it.
        close_output(child_.out, out_);
        close_output(child_.err, err_);
        close_channel();
      }
      if (supervisor_.reaped() && child_.channel < 0 && child_.out < 0 && child_.err < 0) break;
      if (!supervisor_.reaped() && child_.pidfd < 0) supervisor_.try_reap();

      pollfd fds[4];
      int n = 0;
      const int out = now >= out_pause_until_ ? child_.out : -1;
      const int err = now >= err_pause_until_ ? child_.err : -1;
      // Output before the channel: what the fork printed before a frame is in its pipe
      // before that frame, and is echoed before the report line the frame makes.
      for (int fd : {out, err, child_.channel, supervisor_.reaped() ? -1 : child_.pidfd})
        if (fd >= 0) fds[n++] = pollfd{fd, POLLIN, 0};
      const int rc = ::poll(fds, static_cast<nfds_t>(n), poll_timeout_ms(now));
      if (rc < 0) continue;  // EINTR: the watchdog and the stop flag are checked above
      for (int i = 0; i < n; ++i) {
        if (fds[i].revents == 0) continue;
        const int fd = fds[i].fd;
        if (fd == child_.pidfd) {
          supervisor_.try_reap();
        } else if (fd == child_.channel) {
          read_channel(buf, sizeof buf);
        } else if (fd == child_.out) {
          read_output(child_.out, out_, out_pause_until_, buf, sizeof buf);
        } else if (fd == child_.err) {
          read_output(child_.err, err_, err_pause_until_, buf, sizeof buf);
        }
      }
    }
  }

  int poll_timeout_ms(Clock::time_point now) const {
    auto next = now + 1s;
    auto consider = [&](Clock::time_point t) { next = std::min(next, t); };
    if (!host_failure_ && !supervisor_.reaped()) consider(watchdog_deadline());
    consider(supervisor_.next_deadline());
    if (child_.pidfd < 0 && !supervisor_.reaped()) consider(now + 20ms);  // no pidfd: poll waitpid
    if (child_.out >= 0 && out_pause_until_ > now) consider(out_pause_until_);
    if (child_.err >= 0 && err_pause_until_ > now) consider(err_pause_until_);
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 1000));
  }

  /// When the fork's current phase runs out of time.
  Clock::time_point watchdog_deadline() const {
    if (tracker_.finished()) return finish_time_ + grace_;
    if (!tracker_.handshake_seen()) return later(spawn_time_, start_bound_.total());
    if (const IterationStarted* open = tracker_.open_iteration()) {
      const BenchmarkParams& plan = tracker_.plan_of(open->bulk);
      const IterationParams& ip = tracker_.params_of(open->kind, open->bulk);
      return later(later(open_since_, plan.mode == BenchmarkMode::single_shot ? Nanos(0) : ip.time), plan.timeout);
    }
    return later(last_progress_, plan_.timeout);
  }

  void check_watchdog(Clock::time_point now) {
    if (supervisor_.reaped()) return;
    if (interrupt::signal() != 0 && !host_failure_) {
      stop(make_failure(FailureKind::interrupted, "interrupted: the host was asked to stop, and stopped the fork"));
    }
    // Asked twice: the handler killed the group already.
    if (interrupt::count() >= 2) supervisor_.kill_now();
    if (!host_failure_ && now >= watchdog_deadline()) stop(timed_out());
    supervisor_.escalate(now);
  }

  /// The failure of a fork that ran past its phase's deadline.
  Failure timed_out() {
    const IterationStarted* open = tracker_.open_iteration();
    if (tracker_.finished()) {
      return make_failure(FailureKind::stray_threads,
                          "the fork had finished but did not exit within " +
                              describe_time(std::chrono::duration_cast<Nanos>(grace_)) +
                              " (stray threads, or a static destructor that blocks?); cmh stopped it");
    }
    if (open) {
      const BenchmarkParams& plan = tracker_.plan_of(open->bulk);
      const IterationParams& ip = tracker_.params_of(open->kind, open->bulk);
      std::string budget = plan.mode == BenchmarkMode::single_shot
                               ? "timeout " + describe_time(plan.timeout)
                               : describe_time(ip.time) + " iteration + " + describe_time(plan.timeout) + " timeout";
      const std::string whose = open->bulk >= 0 ? " of the bulk warmup of " + plan.benchmark : "";
      return make_failure(FailureKind::timeout, std::string("forked process timed out: ") + kind_text(open->kind) +
                                                    " iteration " + std::to_string(open->index) + whose +
                                                    " ran past its time (" + budget + "); cmh stopped the fork");
    }
    if (!tracker_.handshake_seen()) return hung_at_start();
    return make_failure(FailureKind::timeout, "forked process timed out: no progress for " +
                                                  describe_time(plan_.timeout) + " " + tracker_.idle_phase_text() +
                                                  "; cmh stopped the fork");
  }

  /// The fork missed its start-up bound: its stacks, while it still runs, and the failure.
  Failure hung_at_start() {
    Failure f = make_failure(FailureKind::startup_timeout,
                             "forked process hung at start-up: no handshake within " + start_bound_.describe() +
                                 " (exec, static initialisation, the allocator's start-up; -forkStartTimeout)");
    const StackSnapshot snapshot = take_stack_snapshot(child_.pid, stack_time_limit(request_.host_startup));
    if (snapshot.lines.empty()) {
      f.message += "; cmh stopped the fork (no stacks: " + snapshot.problem + ")";
    } else {
      f.message += "; cmh took its stacks with " + snapshot.tool + " and stopped the fork";
      f.stack = snapshot.lines;
    }
    return f;
  }

  /// The host decided to end this fork: remember why, and SIGTERM its group.
  void stop(Failure why) {
    if (!host_failure_) host_failure_ = std::move(why);
    supervisor_.terminate();
  }

  void read_output(int& fd, OutputCapture& capture, Clock::time_point& pause_until, char* buf, std::size_t size) {
    // While echoing, the pipe is emptied (up to the echo cap's worth), so that a frame
    // that follows is handled after all the output written before it.
    for (std::size_t read_so_far = 0; read_so_far < kEchoLimitBytes;) {
      const ssize_t n = ::read(fd, buf, size);
      if (n > 0) {
        capture.feed(std::string_view(buf, static_cast<std::size_t>(n)));
        read_so_far += static_cast<std::size_t>(n);
        if (!capture.echoing()) {
          if (static_cast<std::size_t>(n) < size) pause_until = Clock::now() + kBatchPause;
          return;
        }
        if (static_cast<std::size_t>(n) < size) return;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        if (n == 0 || errno != EAGAIN) close_output(fd, capture);
        return;
      }
    }
  }

  static void close_output(int& fd, OutputCapture& capture) {
    if (fd < 0) return;
    ::close(fd);
    fd = -1;
    capture.finish();
  }

  void read_channel(char* buf, std::size_t size) {
    const ssize_t n = ::read(child_.channel, buf, size);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
      channel_truncated_ = decoder_.pending() > 0;
      close_channel();
      return;
    }
    if (host_failure_ && host_failure_->kind == FailureKind::protocol) return;
    try {
      decoder_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      while (auto frame = decoder_.next()) handle(decode_message(*frame));
    } catch (const ProtocolError& e) {
      protocol_error(e.what());
    }
  }

  void close_channel() {
    if (child_.channel >= 0) ::close(child_.channel);
    child_.channel = -1;
  }

  void protocol_error(const std::string& what) {
    stop(make_failure(FailureKind::protocol, "the fork corrupted the results channel: " + what));
    close_channel();
  }

  void handle(const Message& message) {
    last_progress_ = Clock::now();
    ProtocolStep step = tracker_.accept(message);  // throws ProtocolError for an illegal message
    if (step.bulk_changed) {
      const int bulk = tracker_.bulk();
      observer_.bulk_warmup(bulk >= 0 ? &tracker_.plan_of(bulk) : nullptr, bulk, tracker_.bulk_count());
    }
    std::visit([this, &step](const auto& m) { on(m, step); }, message);
  }

  // What each legal message does on the host: timestamps, results, the observer.
  void on(const Handshake& m, ProtocolStep&) {
    grace_ = shutdown_grace(std::chrono::duration_cast<Nanos>(Clock::now() - spawn_time_));
    worker_pid_ = m.pid;
    result_.allocator = m.allocator;
    observer_.fork_allocator(m.allocator);
  }
  void on(const PlanMessage&, ProtocolStep&) {}  // refused by the tracker
  void on(const IterationStarted& m, ProtocolStep& step) {
    if (step.first_iteration) {
      const auto startup = std::chrono::duration<double, std::milli>(Clock::now() - spawn_time_).count();
      char text[128];
      std::snprintf(text, sizeof text, "# Fork pid %lld: %.1f ms from spawn to its first iteration",
                    static_cast<long long>(worker_pid_), startup);
      observer_.verbose(text);
    }
    open_since_ = Clock::now();
    observer_.iteration_started(tracker_.params_of(m.kind, m.bulk), m.index);
  }
  void on(const IterationFinished& m, ProtocolStep& step) {
    if (!step.kept) {  // another benchmark's warmup: shown, never kept
      observer_.iteration_finished(m.result);
      return;
    }
    auto& list = m.result.kind == IterationKind::warmup ? result_.warmup : result_.measurement;
    list.push_back(m.result);
    observer_.iteration_finished(list.back());
  }
  void on(const IterationFailed& m, ProtocolStep& step) {
    observer_.iteration_failed(tracker_.params_of(m.kind, m.bulk), m.index, *step.iteration_failure);
    if (step.stop) stop(std::move(*step.stop));
  }
  void on(const BenchmarkError&, ProtocolStep&) {}
  void on(const Finish&, ProtocolStep&) { finish_time_ = Clock::now(); }
  void on(const OutOfMemory&, ProtocolStep&) {}
  void on(const Pinned& m, ProtocolStep&) {
    result_.pinning = m.pinning;
    observer_.workers_pinned(m.pinning);
    // The host's threads, too, off the workers' CPUs while the fork runs.
    host_off_workers_.emplace(engine::cpus_besides_workers(m.pinning, machine::thread_affinity()));
  }

  // ---- after the fork ----

  /// Everything classify() needs, as observed; the decision itself is pure.
  std::optional<Failure> decide_failure() {
    ForkObservations seen;
    tracker_.report_to(seen);
    seen.channel_truncated = channel_truncated_;
    seen.host_failure = host_failure_;
    seen.kill_note = supervisor_.kill_note();
    const int status = supervisor_.wait_status();
    seen.wait_status = status;
    seen.oom_kills_before = oom_kills_before_;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) seen.oom_kills_after = oom_kill_count();
    seen.stdout_tail = out_.tail();
    seen.stderr_tail = err_.tail();
    return classify(seen);
  }

  void run_after_trial() {
    for (ExternalProfiler* p : request_.external_profilers) {
      try {
        auto results = p->after_trial(plan_, result_, child_.pid, out_.kept_text(), err_.kept_text());
        for (auto& r : results) result_.trial_secondaries.push_back(std::move(r));
      } catch (const std::exception& e) {
        if (!result_.failure)
          result_.failure = make_failure(FailureKind::other, std::string("a profiler failed after the fork: ") + e.what());
      }
    }
  }

  const ForkRequest& request_;
  const BenchmarkParams& plan_;
  ForkObserver& observer_;
  ForkResult result_;
  ProtocolTracker tracker_;
  ForkSupervisor supervisor_;     ///< declared before child_, which refers into it
  ChildProcess& child_ = supervisor_.child();
  FrameDecoder decoder_;
  OutputCapture out_;
  OutputCapture err_;
  std::optional<long> oom_kills_before_;

  StartBound start_bound_;  ///< spawn -> handshake (set in start())
  Nanos grace_ = kShutdownGrace;  ///< set at the handshake (shutdown_grace)
  std::int64_t worker_pid_ = 0;
  bool channel_truncated_ = false;
  std::optional<Failure> host_failure_;
  std::optional<engine::ProcessAffinityScope> host_off_workers_;  ///< -pin: back when the session ends

  Clock::time_point out_pause_until_{}, err_pause_until_{};  ///< batched reads, see kBatchPause
  Clock::time_point spawn_time_, last_progress_, open_since_, finish_time_;
};

}  // namespace

Nanos shutdown_grace(Nanos startup) {
  const Nanos floor = kShutdownGrace;
  if (startup <= Nanos(0) || startup > Nanos::max() / kShutdownGraceStartups) return floor;
  // Whole seconds, so that the failure message reads "within 12 s".
  return std::max(floor, std::chrono::duration_cast<Nanos>(std::chrono::ceil<std::chrono::seconds>(startup * kShutdownGraceStartups)));
}

ForkResult run_fork(const ForkRequest& request, ForkObserver& observer) {
  ForkSession session(request, observer);
  return session.run();
}

}  // namespace cmh::forking

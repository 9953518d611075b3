// SPDX-License-Identifier: MIT
// run_fork(): one fork from spawn to reaping, on the host (see fork_runner.hpp).
//
// A single poll() loop watches the results channel, the fork's stdout and
// stderr and its pidfd, with no threads. A watchdog bounds every phase: the
// start-up (spawn to handshake) its own bound (start_bound.hpp; a fork that misses
// it has its stacks taken before it is stopped), an iteration its time plus -to,
// anything else between the handshake and "finish" -to, and after "finish" the
// process has shutdown_grace() to exit. Whatever stops a fork
// (the watchdog, a protocol error, the user's Ctrl-C) sends SIGTERM to its
// process group, then SIGKILL after kTerminateGrace; the child is always reaped.
#include "fork/fork_runner.hpp"

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

#include "fork/adopted.hpp"
#include "fork/classify.hpp"
#include "fork/fork_args.hpp"
#include "fork/messages.hpp"
#include "fork/oom_watch.hpp"
#include "fork/output_capture.hpp"
#include "fork/spawner.hpp"
#include "fork/stack_snapshot.hpp"
#include "fork/start_bound.hpp"
#include "model/interrupt.hpp"

namespace cmh::forking {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kTerminateGrace = 2s;  ///< SIGTERM -> SIGKILL
constexpr auto kShutdownGrace = 3s;   ///< "finish" -> the process must have exited (at least)
constexpr int kShutdownGraceStartups = 10;  ///< ... or this many times the fork's start-up
constexpr auto kDrainGrace = 1s;      ///< exited, but something it started still holds its pipes
// A stream that is no longer echoed is read in batches: after a short read the
// host leaves it for this long, so that a fork writing line by line fills the
// (enlarged) pipe instead of waking the host for every line.
constexpr auto kBatchPause = 2ms;
constexpr int kPipeBytes = 1 << 20;
constexpr std::string_view kWorkerOptionPrefix = "--cmh-fork-worker=";


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

std::string self_executable() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("/proc/self/exe");
}

class ForkSession {
 public:
  ForkSession(const ForkRequest& request, ForkObserver& observer)
      : request_(request),
        plan_(*request.plan),
        observer_(observer),
        out_("stdout", request.tail_lines, echo_sink(false), !request.external_profilers.empty()),
        err_("stderr", request.tail_lines, echo_sink(true), !request.external_profilers.empty()) {
    result_.index = request.index;
    result_.warmup_fork = request.warmup_fork;
  }

  ForkSession(const ForkSession&) = delete;
  ForkSession& operator=(const ForkSession&) = delete;

  /// Only reached with a live child if something threw: the fork must not outlive it.
  ~ForkSession() {
    if (child_.pid > 0 && !reaped_) {
      ::kill(-child_.pid, SIGKILL);
      int status = 0;
      while (::waitpid(child_.pid, &status, 0) < 0 && errno == EINTR) {
      }
      kill_adopted_children();
    }
    close_child_fds(child_);
    interrupt::set_fork_group(0);
  }

  ForkResult run() {
    if (interrupt::signal() != 0) {
      result_.failure = make_failure(FailureKind::interrupted, "interrupted before the fork started");
      return std::move(result_);
    }
    if (!start()) return std::move(result_);
    loop();
    out_.finish();
    err_.finish();
    close_child_fds(child_);
    interrupt::set_fork_group(0);
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
    spec.argv.push_back(std::string(kWorkerOptionPrefix) + std::to_string(kWorkerChannelFd));
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
      child_ = spawn_child(spec);
    } catch (const SpawnError& e) {
      result_.failure = make_failure(FailureKind::spawn, e.what());
      return false;
    }
    interrupt::set_fork_group(child_.pid);
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
      if (reaped_ && (child_.out >= 0 || child_.err >= 0 || child_.channel >= 0) && now > reaped_time_ + kDrainGrace) {
        // Something the fork started (and moved out of its process group) still holds
        // its pipes: stop listening rather than wait for it.
        close_output(child_.out, out_);
        close_output(child_.err, err_);
        close_channel();
      }
      if (reaped_ && child_.channel < 0 && child_.out < 0 && child_.err < 0) break;
      if (!reaped_ && child_.pidfd < 0) try_reap();

      pollfd fds[4];
      int n = 0;
      const int out = now >= out_pause_until_ ? child_.out : -1;
      const int err = now >= err_pause_until_ ? child_.err : -1;
      // Output before the channel: what the fork printed before a frame is in its pipe
      // before that frame, and is echoed before the report line the frame makes.
      for (int fd : {out, err, child_.channel, reaped_ ? -1 : child_.pidfd})
        if (fd >= 0) fds[n++] = pollfd{fd, POLLIN, 0};
      const int rc = ::poll(fds, static_cast<nfds_t>(n), poll_timeout_ms(now));
      if (rc < 0) continue;  // EINTR: the watchdog and the stop flag are checked above
      for (int i = 0; i < n; ++i) {
        if (fds[i].revents == 0) continue;
        const int fd = fds[i].fd;
        if (fd == child_.pidfd) {
          try_reap();
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
    if (!host_failure_ && !reaped_) consider(watchdog_deadline());
    if (term_sent_ && !kill_sent_) consider(term_time_ + kTerminateGrace);
    if (reaped_) consider(reaped_time_ + kDrainGrace);
    if (child_.pidfd < 0 && !reaped_) consider(now + 20ms);  // no pidfd: poll waitpid
    if (child_.out >= 0 && out_pause_until_ > now) consider(out_pause_until_);
    if (child_.err >= 0 && err_pause_until_ > now) consider(err_pause_until_);
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 1000));
  }

  Clock::time_point watchdog_deadline() const {
    if (finished_) return finish_time_ + grace_;
    if (!handshake_) return later(spawn_time_, start_bound_.total());
    if (open_) {
      const BenchmarkParams& plan = plan_of(open_->bulk);
      const IterationParams& ip = params_of(open_->kind, open_->bulk);
      return later(later(open_since_, plan.mode == BenchmarkMode::single_shot ? Nanos(0) : ip.time), plan.timeout);
    }
    return later(last_progress_, plan_.timeout);
  }

  void check_watchdog(Clock::time_point now) {
    if (reaped_) return;
    if (interrupt::signal() != 0 && !host_failure_) {
      stop(make_failure(FailureKind::interrupted, "interrupted: the host was asked to stop, and stopped the fork"));
    }
    if (interrupt::count() >= 2 && !kill_sent_) {  // asked twice: the handler killed the group already
      ::kill(-child_.pid, SIGKILL);
      kill_sent_ = true;
    }
    if (!host_failure_ && now >= watchdog_deadline()) {
      if (finished_) {
        stop(make_failure(FailureKind::stray_threads,
                          "the fork had finished but did not exit within " +
                              describe_time(std::chrono::duration_cast<Nanos>(grace_)) +
                              " (stray threads, or a static destructor that blocks?); cmh stopped it"));
      } else if (open_) {
        const BenchmarkParams& plan = plan_of(open_->bulk);
        const IterationParams& ip = params_of(open_->kind, open_->bulk);
        std::string budget = plan.mode == BenchmarkMode::single_shot
                                 ? "timeout " + describe_time(plan.timeout)
                                 : describe_time(ip.time) + " iteration + " + describe_time(plan.timeout) + " timeout";
        const std::string whose = open_->bulk >= 0 ? " of the bulk warmup of " + plan.benchmark : "";
        stop(make_failure(FailureKind::timeout, std::string("forked process timed out: ") + kind_text(open_->kind) +
                                                    " iteration " + std::to_string(open_->index) + whose +
                                                    " ran past its time (" + budget + "); cmh stopped the fork"));
      } else if (!handshake_) {
        stop(hung_at_start());
      } else {
        stop(make_failure(FailureKind::timeout, "forked process timed out: no progress for " +
                                                    describe_time(plan_.timeout) + " " + phase_text() +
                                                    "; cmh stopped the fork"));
      }
    }
    if (term_sent_ && !kill_sent_ && now >= term_time_ + kTerminateGrace) {
      // A stopped process cannot act on SIGTERM: say which it was.
      kill_reason_ = process_state(child_.pid) == 'T' ? " (it was stopped, SIGSTOP, and was killed with SIGKILL)"
                                                      : " (it ignored SIGTERM and was killed with SIGKILL)";
      ::kill(-child_.pid, SIGKILL);
      kill_sent_ = true;
    }
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

  std::string phase_text() const {
    if (!iterations_seen_) return "in trial set-up, before the first iteration";
    const int total = plan_.warmup.count + plan_.measurement.count;
    if (iterations_done_ >= total) return "in trial tear-down, after the last iteration";
    return "between iterations";
  }

  /// The plan iterations belong to: the fork's own, or bulk warmup `bulk`.
  const BenchmarkParams& plan_of(int bulk) const { return bulk >= 0 ? (*request_.bulk_warmups)[bulk] : plan_; }
  const IterationParams& params_of(IterationKind kind, int bulk = -1) const {
    const BenchmarkParams& plan = plan_of(bulk);
    return kind == IterationKind::warmup ? plan.warmup : plan.measurement;
  }

  /// Frames of a bulk warmup name one the host sent; a change of plan is announced.
  void enter_bulk(int bulk) {
    const int count = request_.bulk_warmups ? static_cast<int>(request_.bulk_warmups->size()) : 0;
    if (bulk < -1 || bulk >= count) throw ProtocolError("an iteration of bulk warmup " + std::to_string(bulk) +
                                                        ", of " + std::to_string(count));
    if (bulk == current_bulk_) return;
    current_bulk_ = bulk;
    observer_.bulk_warmup(bulk >= 0 ? &plan_of(bulk) : nullptr, bulk, count);
  }

  /// The host decided to end this fork: remember why, and SIGTERM its group.
  void stop(Failure why) {
    if (!host_failure_) host_failure_ = std::move(why);
    if (!term_sent_ && !reaped_) {
      ::kill(-child_.pid, SIGTERM);
      term_sent_ = true;
      term_time_ = Clock::now();
    }
  }

  void try_reap() {
    int status = 0;
    const pid_t r = ::waitpid(child_.pid, &status, WNOHANG);
    if (r == child_.pid) {
      reaped_ = true;
      status_ = status;
      reaped_time_ = Clock::now();
      // Anything the fork left behind in its group goes with it, and so does
      // anything it orphaned outside its group (re-parented to the subreaper host).
      ::kill(-child_.pid, SIGKILL);
      kill_adopted_children();
    }
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
    // The allocator may run out of memory in a static destructor, after "finish".
    if (finished_ && !std::holds_alternative<OutOfMemory>(message)) throw ProtocolError("a frame after the finish frame");
    if (!handshake_ && !std::holds_alternative<Handshake>(message))
      throw ProtocolError("the first frame is not a handshake");
    std::visit([this](const auto& m) { on(m); }, message);
  }

  void on(const Handshake& m) {
    if (handshake_) throw ProtocolError("a second handshake");
    if (m.version != kProtocolVersion)
      throw ProtocolError("the fork speaks protocol version " + std::to_string(m.version) + ", the host " +
                          std::to_string(kProtocolVersion));
    handshake_ = true;
    grace_ = shutdown_grace(std::chrono::duration_cast<Nanos>(Clock::now() - spawn_time_));
    worker_pid_ = m.pid;
    result_.allocator = m.allocator;
    observer_.fork_allocator(m.allocator);
  }
  void on(const PlanMessage&) { throw ProtocolError("a plan frame from the fork"); }
  void on(const IterationStarted& m) {
    if (open_) throw ProtocolError("an iteration started while another was running");
    enter_bulk(m.bulk);
    if (!iterations_seen_) {
      iterations_seen_ = true;
      const auto startup = std::chrono::duration<double, std::milli>(Clock::now() - spawn_time_).count();
      char text[128];
      std::snprintf(text, sizeof text, "# Fork pid %lld: %.1f ms from spawn to its first iteration",
                    static_cast<long long>(worker_pid_), startup);
      observer_.verbose(text);
    }
    open_ = m;
    open_since_ = Clock::now();
    observer_.iteration_started(params_of(m.kind, m.bulk), m.index);
  }
  void on(const IterationFinished& m) {
    if (!open_ || open_->kind != m.result.kind || open_->index != m.result.index)
      throw ProtocolError("an iteration result that does not match the iteration that started");
    const bool bulk = open_->bulk >= 0;
    open_.reset();
    if (bulk) {  // another benchmark's warmup: shown, never kept
      observer_.iteration_finished(m.result);
      return;
    }
    ++iterations_done_;
    auto& list = m.result.kind == IterationKind::warmup ? result_.warmup : result_.measurement;
    list.push_back(m.result);
    observer_.iteration_finished(list.back());
  }
  void on(const IterationFailed& m) {
    open_.reset();
    enter_bulk(m.bulk);
    Failure failure = m.failure;
    // Said as what it is on the iteration line already; the allocator's line is added at the end.
    if (failure.kind == FailureKind::out_of_memory) describe_out_of_memory(failure);
    if (m.bulk >= 0) {
      // JMH goes on with the next action; with -foe the fork (and so the run) stops here.
      observer_.iteration_failed(params_of(m.kind, m.bulk), m.index, failure);
      if (request_.fail_on_error) {
        Failure why = failure;
        why.message = "the bulk warmup of " + plan_of(m.bulk).benchmark + " failed (-foe true): " + failure.message;
        stop(std::move(why));
      }
      return;
    }
    if (!worker_failure_) worker_failure_ = failure;
    observer_.iteration_failed(params_of(m.kind), m.index, failure);
  }
  void on(const BenchmarkError& m) {
    if (!worker_failure_) worker_failure_ = m.failure;
  }
  void on(const Finish&) {
    finished_ = true;
    finish_time_ = Clock::now();
  }
  void on(const OutOfMemory& m) {
    if (!allocator_oom_) allocator_oom_ = m;
  }

  // ---- after the fork ----

  /// Everything classify() needs, as observed; the decision itself is pure.
  std::optional<Failure> decide_failure() {
    ForkObservations seen;
    seen.finished = finished_;
    seen.channel_truncated = channel_truncated_;
    seen.worker_failure = worker_failure_;
    if (allocator_oom_) {
      seen.allocator_oom = allocator_oom_->line;
      seen.allocator_heap_limit = allocator_oom_->heap_limit;
    }
    seen.host_failure = host_failure_;
    seen.kill_note = kill_reason_;
    seen.wait_status = status_;
    seen.oom_kills_before = oom_kills_before_;
    if (WIFSIGNALED(status_) && WTERMSIG(status_) == SIGKILL) seen.oom_kills_after = oom_kill_count();
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
  ChildProcess child_;
  FrameDecoder decoder_;
  OutputCapture out_;
  OutputCapture err_;
  std::optional<long> oom_kills_before_;

  StartBound start_bound_;  ///< spawn -> handshake (set in start())
  bool handshake_ = false;
  Nanos grace_ = kShutdownGrace;  ///< set at the handshake (shutdown_grace)
  std::int64_t worker_pid_ = 0;
  bool iterations_seen_ = false;
  int iterations_done_ = 0;
  std::optional<IterationStarted> open_;
  int current_bulk_ = -1;  ///< the bulk warmup the last frames belonged to, -1: the plan's own
  bool finished_ = false;
  bool channel_truncated_ = false;
  std::optional<Failure> worker_failure_;
  std::optional<Failure> host_failure_;
  std::optional<OutOfMemory> allocator_oom_;

  Clock::time_point out_pause_until_{}, err_pause_until_{};  ///< batched reads, see kBatchPause

  bool reaped_ = false;
  int status_ = 0;
  bool term_sent_ = false;
  bool kill_sent_ = false;
  std::string kill_reason_;  ///< why SIGKILL followed SIGTERM after the grace period, for the message
  Clock::time_point spawn_time_, last_progress_, open_since_, finish_time_, term_time_, reaped_time_;
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

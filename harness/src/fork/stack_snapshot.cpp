// SPDX-License-Identifier: MIT
// Stacks of a hung fork, by eu-stack or gdb (see stack_snapshot.hpp). The debugger is
// started with posix_spawn (the host may hold locks a fork()ed copy would need) in
// its own process group, without DEBUGINFOD_URLS (no network lookups from inside a
// benchmark run), and read through one pipe until it exits or its time is up.
#include "fork/stack_snapshot.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

#include "fork/spawner.hpp"
#include "model/interrupt.hpp"

extern char** environ;

namespace cmh::forking {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxOutputBytes = std::size_t{4} << 20;  // a few thousand threads' worth

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// At most kStackLineChars bytes, never cutting a UTF-8 sequence in two.
std::string cut(std::string line) {
  if (line.size() <= kStackLineChars) return line;
  std::size_t n = kStackLineChars - 3;
  while (n > 0 && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80) --n;
  line.resize(n);
  return line + "...";
}

struct ThreadStack {
  std::string header;
  std::vector<std::string> frames;
};

/// gdb: 'Thread 2 (Thread 0x7f.. (LWP 8137) "name"):' -> 'Thread 8137 (name):'; without
/// libthread_db gdb writes '(LWP 8137 "name")' or '(process 8137)'.
std::string gdb_thread_header(std::string_view line) {
  std::string out = "Thread";
  for (std::string_view key : {"(LWP ", "(process "}) {
    const auto at = line.find(key);
    if (at == std::string_view::npos) continue;
    const auto from = at + key.size();
    const auto end = line.find_first_not_of("0123456789", from);
    out += " " + std::string(line.substr(from, (end == std::string_view::npos ? line.size() : end) - from));
    break;
  }
  const auto q1 = line.find('"'), q2 = line.rfind('"');
  if (q1 != std::string_view::npos && q2 > q1) out += " (" + std::string(line.substr(q1 + 1, q2 - q1 - 1)) + ")";
  return out + ":";
}

/// "#3  0x0000564750146272 in f (...) at x.cpp:4" or eu-stack's "#3  0x0000564750146272 f"
/// -> "  #3 f (...) at x.cpp:4".
std::string frame_line(std::string_view line) {
  std::size_t i = 1;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  const std::string number(line.substr(0, i));
  std::string_view rest = trim(line.substr(i));
  if (std::string_view(rest).starts_with("0x")) {
    std::size_t j = 2;
    while (j < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[j]))) ++j;
    rest = trim(rest.substr(j));
    if (std::string_view(rest).starts_with("in ")) rest = trim(rest.substr(3));
  }
  return "  " + number + " " + std::string(rest.empty() ? "??" : rest);
}

bool is_frame(std::string_view line) {
  return line.size() > 1 && line[0] == '#' && std::isdigit(static_cast<unsigned char>(line[1]));
}

/// Runs `argv` with its output read into `out` until it exits or `deadline`; false
/// (with `problem` set) if it could not be started, timed out or was interrupted.
bool run_debugger(const std::vector<std::string>& argv, Clock::time_point deadline, std::string& out,
                  std::string& problem) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    problem = std::string("no pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> env_store;
  for (char** e = environ; e && *e; ++e)
    if (!std::string_view(*e).starts_with("DEBUGINFOD_URLS=")) env_store.emplace_back(*e);
  std::vector<char*> envp, args;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_store = argv;
  for (auto& a : arg_store) args.push_back(a.data());
  args.push_back(nullptr);

  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, arg_store.front().c_str(), &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    problem = "could not be started: " + std::string(std::strerror(rc));
    return false;
  }

  bool finished = false;
  char buf[16384];
  while (true) {
    const auto now = Clock::now();
    if (now >= deadline) {
      problem = "did not finish in time";
      break;
    }
    if (interrupt::signal() != 0) {
      problem = "interrupted";
      break;
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    pollfd p{pipe_fds[0], POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
    if (n <= 0) continue;
    const ssize_t got = ::read(pipe_fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      finished = true;  // end of output: the debugger has exited (or closed its ends)
      break;
    }
    if (out.size() < kMaxOutputBytes) out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  if (!finished) ::kill(-pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return finished;
}

/// The debugger's own explanation: its last line that is not a frame.
std::string last_message(std::string_view raw) {
  std::string_view last;
  while (!raw.empty()) {
    const auto nl = raw.find('\n');
    const std::string_view line = trim(raw.substr(0, nl));
    if (!line.empty() && !is_frame(line)) last = line;
    raw = nl == std::string_view::npos ? std::string_view() : raw.substr(nl + 1);
  }
  return last.empty() ? std::string("no stack in its output") : cut(std::string(last));
}

}  // namespace

std::vector<std::string> trim_stack_output(std::string_view raw) {
  std::vector<ThreadStack> threads;
  bool gdb = false;
  while (!raw.empty()) {
    const auto nl = raw.find('\n');
    const std::string_view full = raw.substr(0, nl);
    raw = nl == std::string_view::npos ? std::string_view() : raw.substr(nl + 1);
    const std::string_view line = trim(full);
    if (std::string_view(line).starts_with("TID ") && line.back() == ':') {  // eu-stack
      threads.push_back({"Thread " + std::string(trim(line.substr(4, line.size() - 5))) + ":", {}});
    } else if (std::string_view(line).starts_with("Thread ") && line.back() == ':' &&
               (line.find("(LWP ") != std::string_view::npos || line.find("(process ") != std::string_view::npos)) {
      gdb = true;
      threads.push_back({gdb_thread_header(line), {}});
    } else if (is_frame(line)) {
      if (threads.empty()) threads.push_back({"Thread:", {}});
      threads.back().frames.push_back(frame_line(line));
    } else if (!gdb && std::string_view(full).starts_with("    ") && !line.empty() && !threads.empty() &&
               !threads.back().frames.empty()) {
      threads.back().frames.back() += " at " + std::string(line);  // eu-stack -s: the frame's source line
    }
  }
  if (gdb) std::reverse(threads.begin(), threads.end());  // gdb lists the main thread last
  std::vector<std::string> out;
  const int shown = std::min<int>(kStackThreads, static_cast<int>(threads.size()));
  for (int t = 0; t < shown; ++t) {
    const auto& thread = threads[static_cast<std::size_t>(t)];
    out.push_back(cut(thread.header));
    const int frames = static_cast<int>(thread.frames.size());
    for (int f = 0; f < std::min(frames, kStackFrames); ++f)
      out.push_back(cut(thread.frames[static_cast<std::size_t>(f)]));
    if (frames > kStackFrames) out.push_back("  ... " + std::to_string(frames - kStackFrames) + " more frames");
  }
  if (static_cast<int>(threads.size()) > shown)
    out.push_back("... " + std::to_string(threads.size() - static_cast<std::size_t>(shown)) + " more threads");
  return out;
}

StackSnapshot take_stack_snapshot(pid_t pid, Nanos limit) {
  StackSnapshot snap;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(limit);
  const std::string target = std::to_string(pid);
  struct Tool {
    const char* name;
    std::vector<std::string> args;
  };
  const Tool tools[] = {
      {"eu-stack", {"-s", "-p", target}},
      {"gdb", {"-nx", "-batch", "-p", target, "-ex", "set print frame-arguments none", "-ex", "thread apply all bt"}},
  };
  std::vector<std::string> problems;
  for (const Tool& tool : tools) {
    const std::string path = find_in_path(tool.name);
    if (path.empty()) continue;
    std::vector<std::string> argv{path};
    argv.insert(argv.end(), tool.args.begin(), tool.args.end());
    std::string raw, problem;
    const bool ran = run_debugger(argv, deadline, raw, problem);
    ::kill(pid, SIGCONT);  // a debugger killed while attached may leave the fork stopped
    std::vector<std::string> lines = trim_stack_output(raw);
    const bool has_frame =
        std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("  #"); });
    if (ran && has_frame) {
      snap.lines = std::move(lines);
      snap.tool = tool.name;
      return snap;
    }
    problems.push_back(std::string(tool.name) + ": " + (ran ? last_message(raw) : problem));
    if (!ran && problem == "interrupted") break;
  }
  if (problems.empty()) {
    snap.problem = "neither eu-stack nor gdb is installed";
  } else {
    for (const auto& p : problems) snap.problem += (snap.problem.empty() ? "" : "; ") + p;
  }
  return snap;
}

}  // namespace cmh::forking

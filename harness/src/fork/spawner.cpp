// SPDX-License-Identifier: MIT
// fork + exec of a worker (see spawner.hpp). The child side must not allocate or
// take locks (another thread of the host could hold malloc's), so argv, envp,
// the CPU set and the node mask are built first, and a failure between fork and
// exec is written as two ints to a close-on-exec pipe the parent reads: EOF on
// that pipe means exec succeeded.
#include "fork/spawner.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>
#include <utility>

extern char** environ;

namespace cmh::forking {

namespace {

// Linux's memory policy modes (numaif.h), spelled here to keep libnuma's
// wrappers out of the child.
constexpr int kMpolPreferred = 1;
constexpr int kMpolBind = 2;
constexpr int kMpolInterleave = 3;
constexpr int kMpolLocal = 4;

enum ChildStage : int { kStageSetup = 1, kStageAffinity = 2, kStageMemoryPolicy = 3, kStageExec = 4 };

const char* stage_text(int stage) {
  switch (stage) {
    case kStageSetup: return "setting up its descriptors";
    case kStageAffinity: return "binding its CPUs (sched_setaffinity)";
    case kStageMemoryPolicy: return "setting its memory policy (set_mempolicy)";
    case kStageExec: return "execve";
  }
  return "starting";
}

std::string errno_text(int err) { return std::strerror(err); }

/// Everything the child uses, ready before fork().
struct Prepared {
  std::vector<char*> argv;
  std::vector<char*> envp;
  cpu_set_t* cpus = nullptr;
  std::size_t cpus_size = 0;
  std::vector<unsigned long> nodemask;
  unsigned long maxnode = 0;
  int mempolicy = -1;  // -1: leave the inherited policy
  ~Prepared() {
    if (cpus) CPU_FREE(cpus);
  }
};

void prepare(const SpawnSpec& spec, std::vector<std::string>& argv_store, std::vector<std::string>& env_store,
             Prepared& p) {
  argv_store = spec.argv;
  env_store = spec.env;
  for (auto& a : argv_store) p.argv.push_back(a.data());
  p.argv.push_back(nullptr);
  for (auto& e : env_store) p.envp.push_back(e.data());
  p.envp.push_back(nullptr);
  if (!spec.cpus.empty()) {
    int max_cpu = 0;
    for (int c : spec.cpus) max_cpu = std::max(max_cpu, c);
    p.cpus = CPU_ALLOC(max_cpu + 1);
    p.cpus_size = CPU_ALLOC_SIZE(max_cpu + 1);
    CPU_ZERO_S(p.cpus_size, p.cpus);
    for (int c : spec.cpus) CPU_SET_S(static_cast<std::size_t>(c), p.cpus_size, p.cpus);
  }
  switch (spec.memory_policy) {
    case MemoryPolicy::inherit: return;
    case MemoryPolicy::local: p.mempolicy = kMpolLocal; return;
    case MemoryPolicy::bind: p.mempolicy = kMpolBind; break;
    case MemoryPolicy::interleave: p.mempolicy = kMpolInterleave; break;
    case MemoryPolicy::preferred: p.mempolicy = kMpolPreferred; break;
  }
  constexpr int kBits = static_cast<int>(sizeof(unsigned long) * CHAR_BIT);
  int max_node = 0;
  for (int n : spec.memory_nodes) max_node = std::max(max_node, n);
  p.nodemask.assign(static_cast<std::size_t>(max_node / kBits + 1), 0UL);
  for (int n : spec.memory_nodes) p.nodemask[static_cast<std::size_t>(n / kBits)] |= 1UL << (n % kBits);
  // The kernel reads maxnode - 1 bits (a long-standing quirk libnuma also allows for).
  p.maxnode = p.nodemask.size() * kBits + 1;
}

[[noreturn]] void child_fail(int report_fd, int stage) {
  const int msg[2] = {stage, errno};
  ssize_t ignored = ::write(report_fd, msg, sizeof msg);
  (void)ignored;
  ::_exit(127);
}

/// Runs in the child between fork and exec: raw system calls only.
[[noreturn]] void child_main(const Prepared& p, const char* path, pid_t host, int null_fd, int out_fd, int err_fd,
                             int channel_fd, int report_fd) {
  // Its own process group: the host stops the fork and everything it started with
  // one kill(-pgid), and a Ctrl-C at the terminal reaches the host only.
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a host killed with -9 takes its fork along
  if (::getppid() != host) ::_exit(127);
  // Under Yama's ptrace_scope 1 only an ancestor may attach: this lets the debugger the
  // host starts for a fork hung at start-up (a sibling) take its stacks. It survives
  // exec; without Yama the call fails with EINVAL, harmlessly.
  ::prctl(PR_SET_PTRACER, host, 0, 0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1}) ::signal(sig, SIG_DFL);

  // Move the four sources above 9 first, so dup2 onto 0..3 can never clobber one.
  int src[4] = {null_fd, out_fd, err_fd, channel_fd};
  for (int& fd : src) {
    fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
    if (fd < 0) child_fail(report_fd, kStageSetup);
  }
  const int target[4] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, kWorkerChannelFd};
  for (int i = 0; i < 4; ++i)
    if (::dup2(src[i], target[i]) < 0) child_fail(report_fd, kStageSetup);
  // Nothing else of the host's reaches the fork (report_fd closes at exec).
  ::syscall(SYS_close_range, kWorkerChannelFd + 1, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */);

  if (p.cpus && ::sched_setaffinity(0, p.cpus_size, p.cpus) != 0) child_fail(report_fd, kStageAffinity);
  if (p.mempolicy >= 0) {
    const unsigned long* mask = p.mempolicy == kMpolLocal ? nullptr : p.nodemask.data();
    const unsigned long maxnode = p.mempolicy == kMpolLocal ? 0 : p.maxnode;
    if (::syscall(SYS_set_mempolicy, p.mempolicy, mask, maxnode) != 0) child_fail(report_fd, kStageMemoryPolicy);
  }
  ::execve(path, p.argv.data(), p.envp.data());
  child_fail(report_fd, kStageExec);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

ChildProcess spawn_child(const SpawnSpec& spec) {
  std::vector<std::string> argv_store, env_store;
  Prepared p;
  prepare(spec, argv_store, env_store, p);

  int sock[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  auto close_all = [&] {
    for (int* fd : {&sock[0], &sock[1], &out[0], &out[1], &err[0], &err[1], &report[0], &report[1], &null_fd})
      close_fd(*fd);
  };
  if (null_fd < 0 || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0 ||
      ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0 || ::pipe2(report, O_CLOEXEC) != 0) {
    const int e = errno;
    close_all();
    throw SpawnError("could not create the fork's pipes: " + errno_text(e));
  }

  const pid_t host = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    close_all();
    throw SpawnError("fork() failed: " + errno_text(e));
  }
  if (pid == 0) child_main(p, spec.path.c_str(), host, null_fd, out[1], err[1], sock[1], report[1]);

  // Also set from the parent, so the group exists before anyone signals it.
  ::setpgid(pid, pid);
  close_fd(sock[1]);
  close_fd(out[1]);
  close_fd(err[1]);
  close_fd(report[1]);
  close_fd(null_fd);

  int msg[2] = {0, 0};
  ssize_t n;
  do n = ::read(report[0], msg, sizeof msg);
  while (n < 0 && errno == EINTR);
  close_fd(report[0]);
  if (n > 0) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    close_fd(sock[0]);
    close_fd(out[0]);
    close_fd(err[0]);
    std::string what = std::string("the fork could not start: ") + stage_text(msg[0]);
    if (msg[0] == kStageExec) what += " " + spec.path;
    throw SpawnError(what + ": " + errno_text(msg[1]));
  }

  ChildProcess child;
  child.pid = pid;
  child.channel = sock[0];
  child.out = out[0];
  child.err = err[0];
  for (int fd : {child.channel, child.out, child.err}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  const long pidfd = ::syscall(SYS_pidfd_open, pid, 0);
  child.pidfd = pidfd >= 0 ? static_cast<int>(pidfd) : -1;
  if (child.pidfd >= 0) ::fcntl(child.pidfd, F_SETFD, FD_CLOEXEC);
  return child;
}

void close_child_fds(ChildProcess& child) {
  close_fd(child.channel);
  close_fd(child.out);
  close_fd(child.err);
  close_fd(child.pidfd);
}

std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::size_t> index;
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    index[entry.substr(0, entry.find('='))] = env.size();
    env.push_back(std::move(entry));
  }
  for (const auto& [name, value] : overrides) {
    auto it = index.find(name);
    if (it != index.end()) {
      env[it->second] = name + "=" + value;
    } else {
      index[name] = env.size();
      env.push_back(name + "=" + value);
    }
  }
  return env;
}

std::string find_in_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const auto colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) return {};
    dirs.remove_prefix(colon + 1);
  }
}

}  // namespace cmh::forking

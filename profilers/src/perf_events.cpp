// SPDX-License-Identifier: MIT
// The perf_event_open side of perf/perfnorm: event table, probing, opening an
// inherit counter on each thread, reading and multiplexing scaling.
#include <cmh/profilers/perf_events.hpp>

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

namespace cmh::profilers {
namespace {

constexpr std::uint64_t cache_event(std::uint64_t cache) {
  return cache | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
}

/// Threads beyond this many (at profiler construction) are not given counters of their own.
constexpr std::size_t kMaxThreads = 256;

int open_event(const PerfEventSpec& event, pid_t tid, bool exclude_kernel) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  attr.inherit = 1;  // threads created later by this one are counted too
  attr.exclude_hv = 1;
  attr.exclude_kernel = exclude_kernel || event.user_only ? 1 : 0;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return static_cast<int>(::syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

std::string paranoid_level() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string level;
  if (!(in >> level)) return "unknown";
  return level;
}

const char* errno_name(int err) {
  switch (err) {
    case ENOENT: return "ENOENT";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EINVAL: return "EINVAL";
    case ENOSYS: return "ENOSYS";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case ENODEV: return "ENODEV";
    default: return std::strerror(err);
  }
}

}  // namespace

std::string explain_perf_open_error(int err, bool hardware) {
  const std::string call = std::string("perf_event_open: ") + errno_name(err);
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      return hardware ? "no hardware PMU, as in a VM without a virtual PMU; " + call
                            : "the kernel does not provide it; " + call;
    case EACCES:
    case EPERM:
      if (::geteuid() == 0)  // root passes the paranoid check: something else forbids it
        return "not permitted even for root (a seccomp filter or container policy forbids it; "
               "kernel.perf_event_paranoid = " + paranoid_level() + "); " + call;
      return "not permitted (kernel.perf_event_paranoid = " + paranoid_level() +
             "; run as root or with CAP_PERFMON, or lower it); " + call;
    case ENOSYS:
      return "this kernel has no perf_event_open (CONFIG_PERF_EVENTS is off)";
    case EMFILE:
    case ENFILE:
      return "too many open files for another counter; " + call;
    default:
      return call;
  }
}

namespace {

std::string explain_errno(int err, const PerfEventSpec& event) { return explain_perf_open_error(err, event.hardware); }

/// Opens on `tid`; with kernel counting refused, retries user-space only.
int open_with_fallback(const PerfEventSpec& event, pid_t tid, bool& user_only, int& err) {
  int fd = open_event(event, tid, user_only);
  if (fd < 0 && (errno == EACCES || errno == EPERM) && !user_only) {
    fd = open_event(event, tid, true);
    if (fd >= 0) user_only = true;
  }
  err = fd < 0 ? errno : 0;
  return fd;
}

std::vector<pid_t> process_threads() {
  std::vector<pid_t> tids;
  const pid_t self = static_cast<pid_t>(::syscall(SYS_gettid));
  tids.push_back(self);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const pid_t tid = static_cast<pid_t>(std::atol(entry.path().filename().c_str()));
    if (tid > 0 && tid != self && tids.size() < kMaxThreads) tids.push_back(tid);
  }
  return tids;
}

}  // namespace

const std::vector<PerfEventSpec>& perf_event_table() {
  static const std::vector<PerfEventSpec> table = {
      {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true, "#/op"},
      {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true, "#/op"},
      // Beside -prof icount's icount.ir.norm: Callgrind counts user space only.
      {"instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true, "#/op", true},
      {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true, "#/op"},
      {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, true, "#/op"},
      {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE, cache_event(PERF_COUNT_HW_CACHE_L1D), true, "#/op"},
      {"LLC-load-misses", PERF_TYPE_HW_CACHE, cache_event(PERF_COUNT_HW_CACHE_LL), true, "#/op"},
      {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false, "ns/op"},
      {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false, "#/op"},
      {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false, "#/op"},
      {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, false, "#/op"},
  };
  return table;
}

const PerfEventSpec* find_perf_event(std::string_view name) {
  for (const auto& e : perf_event_table())
    if (name == e.name) return &e;
  return nullptr;
}

std::optional<std::string> probe_perf_event(const PerfEventSpec& event) {
  bool user_only = false;
  int err = 0;
  const int fd = open_with_fallback(event, 0, user_only, err);
  if (fd < 0) return explain_errno(err, event);
  ::close(fd);
  return std::nullopt;
}

std::optional<std::string> perf_unsupported_reason() {
  const PerfEventSpec* task_clock = find_perf_event("task-clock");
  return probe_perf_event(*task_clock);
}

std::optional<std::string> perf_limitation() {
  std::string hardware, other, hardware_reason;
  for (const auto& event : perf_event_table()) {
    auto reason = probe_perf_event(event);
    if (!reason) continue;
    if (event.hardware) {
      hardware += (hardware.empty() ? "" : ", ") + std::string(event.name);
      if (hardware_reason.empty()) hardware_reason = *reason;
    } else {
      other += (other.empty() ? "" : "; ") + std::string(event.name) + ": " + *reason;
    }
  }
  if (hardware.empty() && other.empty()) return std::nullopt;
  std::string out;
  if (!hardware.empty())
    out = "hardware events not supported here (" + hardware_reason + "): " + hardware +
          "; software events are counted";
  if (!other.empty()) out += (out.empty() ? "" : "; ") + std::string("not supported here: ") + other;
  return out;
}

double scale_for_multiplexing(std::uint64_t count, std::uint64_t enabled, std::uint64_t running) {
  // running == enabled: counted all the time. running == 0: never scheduled in the
  // window, so nothing to scale (and the count did not grow).
  if (running == 0 || running >= enabled) return static_cast<double>(count);
  return static_cast<double>(count) * static_cast<double>(enabled) / static_cast<double>(running);
}

PerfCounterSet::PerfCounterSet(PerfCounterSet&& other) noexcept
    : fds_(std::move(other.fds_)), user_only_(other.user_only_) {
  other.fds_.clear();
}

PerfCounterSet& PerfCounterSet::operator=(PerfCounterSet&& other) noexcept {
  if (this != &other) {
    close_all();
    fds_ = std::move(other.fds_);
    other.fds_.clear();
    user_only_ = other.user_only_;
  }
  return *this;
}

PerfCounterSet::~PerfCounterSet() { close_all(); }

void PerfCounterSet::close_all() {
  for (int fd : fds_) ::close(fd);
  fds_.clear();
}

std::optional<std::string> PerfCounterSet::open(const PerfEventSpec& event) {
  close_all();
  user_only_ = false;
  for (pid_t tid : process_threads()) {
    int err = 0;
    const int fd = open_with_fallback(event, tid, user_only_, err);
    if (fd >= 0) {
      fds_.push_back(fd);
    } else if (fds_.empty()) {
      return explain_errno(err, event);  // not even the calling thread: the event is unusable
    }
    // Another thread may have exited since /proc/self/task was listed (ESRCH): skip it.
  }
  return std::nullopt;
}

void PerfCounterSet::read(std::vector<Reading>& snapshot) const {
  for (std::size_t i = 0; i < fds_.size() && i < snapshot.size(); ++i) {
    std::uint64_t values[3] = {0, 0, 0};
    if (::read(fds_[i], values, sizeof values) == static_cast<ssize_t>(sizeof values))
      snapshot[i] = {values[0], values[1], values[2]};
  }
}

double PerfCounterSet::scaled_delta(const std::vector<Reading>& before, const std::vector<Reading>& after) {
  double total = 0;
  for (std::size_t i = 0; i < before.size() && i < after.size(); ++i) {
    const auto grow = [](std::uint64_t b, std::uint64_t a) { return a > b ? a - b : 0; };
    total += scale_for_multiplexing(grow(before[i].count, after[i].count),
                                    grow(before[i].enabled, after[i].enabled),
                                    grow(before[i].running, after[i].running));
  }
  return total;
}

}  // namespace cmh::profilers

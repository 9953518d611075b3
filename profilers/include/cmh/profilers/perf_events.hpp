// SPDX-License-Identifier: MIT
// perf_event_open counters for the whole fork: the event table, probing what this
// machine can count (and why not), and a counter set read around iterations.
//
// Threads: a counter opened with inherit=1 counts its thread and every thread that
// thread creates afterwards, exited ones included (the kernel folds a child's count
// into its parent's at exit, and a read sums the live children). The profiler is
// constructed in the fork before the engine starts the trial's worker threads, so one
// inherit counter per event on each thread alive at construction (from
// /proc/self/task, pid=tid, cpu=-1) covers the whole process from then on, including
// threads a benchmark starts and joins inside an op (TAB.separate).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::profilers {

struct PerfEventSpec {
  const char* name;  ///< as perf prints it: "cycles", "L1-dcache-load-misses", "task-clock"
  std::uint32_t type;
  std::uint64_t config;
  bool hardware;     ///< needs a PMU (a VM without a virtual PMU has none)
  const char* unit;  ///< per op: "#/op", or "ns/op" for task-clock
  /// Counts user space only (perf's ":u" modifier): instructions:u is what Callgrind counts.
  bool user_only{};
};

/// Every event perf/perfnorm know, in report order.
const std::vector<PerfEventSpec>& perf_event_table();
const PerfEventSpec* find_perf_event(std::string_view name);

/// nullopt if this process can open `event` (probed on the calling thread), else why not.
std::optional<std::string> probe_perf_event(const PerfEventSpec& event);

/// nullopt if perf_event_open works at all here (a software event opens), else why not.
std::optional<std::string> perf_unsupported_reason();

/// "hardware events not supported here (...): cycles, ...; software events are counted",
/// or nullopt when every event in the table opens.
std::optional<std::string> perf_limitation();

/// One line on why perf_event_open failed with `err` (errno) for a hardware or software
/// event: no PMU, not permitted (and what to change), no kernel support, ...
std::string explain_perf_open_error(int err, bool hardware);

/// Δcount scaled for multiplexing: the event ran `running` of the `enabled` time.
double scale_for_multiplexing(std::uint64_t count, std::uint64_t enabled, std::uint64_t running);

/// One event counted on every thread of the process (see the file comment).
class PerfCounterSet {
 public:
  struct Reading {
    std::uint64_t count = 0, enabled = 0, running = 0;
  };

  PerfCounterSet() = default;
  PerfCounterSet(const PerfCounterSet&) = delete;
  PerfCounterSet& operator=(const PerfCounterSet&) = delete;
  PerfCounterSet(PerfCounterSet&& other) noexcept;
  PerfCounterSet& operator=(PerfCounterSet&& other) noexcept;
  ~PerfCounterSet();

  /// Opens `event` on every thread of the process; nullopt on success, else why not.
  /// `user_only` is set when the kernel only allowed user-space counting.
  std::optional<std::string> open(const PerfEventSpec& event);
  bool user_only() const { return user_only_; }

  /// Reads every thread's counter into `snapshot` (sized at open; no allocation).
  void read(std::vector<Reading>& snapshot) const;
  std::size_t size() const { return fds_.size(); }

  /// Σ over threads of the scaled growth from `before` to `after`.
  static double scaled_delta(const std::vector<Reading>& before, const std::vector<Reading>& after);

 private:
  void close_all();
  std::vector<int> fds_;
  bool user_only_ = false;
};

}  // namespace cmh::profilers

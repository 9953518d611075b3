// SPDX-License-Identifier: MIT
// The worker threads of one trial: created once, parked between jobs, joined at
// the end. The control thread posts a job (a plain function and a context
// pointer) to one worker or to all, then waits for completion. Posting, running
// and completing a job allocate nothing, so a job may run inside the profiled
// window of an iteration.
#pragma once

#include <cmh/result.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace cmh::engine {

struct Job {
  void (*run)(void* context, int worker) = nullptr;
  void* context = nullptr;
};

class WorkerPool {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts `workers` threads (throws std::system_error if the system refuses). With
  /// `cpus` (one per worker), each thread pins itself to its CPU before it reports
  /// ready, so that its set-up (stack, first-touch pages) happens there.
  explicit WorkerPool(int workers, std::vector<int> cpus = {});
  /// Waits for running jobs to end, then stops and joins every thread.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(slots_.size()); }
  /// The workers' kernel thread ids (gettid), by worker index.
  std::vector<int> thread_ids() const;

  /// Hands `job` to an idle worker.
  void post(int worker, Job job);
  void post_all(Job job);

  /// Waits until no posted job is running; false if `deadline` came first.
  bool wait_until(Clock::time_point deadline);
  void wait();
  /// How many jobs have failed so far (pass to sleep_unless_failed).
  int failure_count();
  /// Sleeps until `deadline`, or less once more than `failures_seen` jobs have
  /// failed; true if one had.
  bool sleep_unless_failed(Clock::time_point deadline, int failures_seen);

  /// What the worker's last job threw, if anything; cleared by the next post.
  const std::optional<Failure>& failure(int worker) const { return slots_[worker]->failure; }
  /// The first failure among all workers, lowest index first.
  std::optional<Failure> first_failure() const;

 private:
  struct alignas(128) Slot {
    std::atomic<std::uint32_t> posted{0};
    std::atomic<bool> ready{false};  // the thread has set itself up (its StackGuard)
    int pin_error = 0;               // errno of pinning itself to its CPU, written before ready
    int tid = 0;                     // its gettid(), written before ready
    Job job;
    std::optional<Failure> failure;
  };
  void worker_main(int index);

  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<int> cpus_;  // -pin: each worker's CPU, or empty
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int running_ = 0;   // posted jobs not yet finished (guarded by mutex_)
  int failures_ = 0;  // jobs that failed since construction (guarded by mutex_)
};

}  // namespace cmh::engine

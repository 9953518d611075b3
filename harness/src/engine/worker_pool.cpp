// SPDX-License-Identifier: MIT
// WorkerPool: one mailbox per worker (a sequence number it waits on with
// std::atomic::wait, i.e. a futex), one mutex and condition variable for
// completions. Jobs that throw are recorded as Failures, never propagated.
#include "engine/worker_pool.hpp"

#include <cxxabi.h>
#include <pthread.h>
#include <unistd.h>

#include <string>
#include <system_error>

#include "engine/failure.hpp"
#include "engine/stack_guard.hpp"
#include <cmh/machine/topology.hpp>

namespace cmh::engine {

WorkerPool::WorkerPool(int workers, std::vector<int> cpus) : cpus_(std::move(cpus)) {
  slots_.reserve(workers);
  for (int i = 0; i < workers; ++i) slots_.push_back(std::make_unique<Slot>());
  threads_.reserve(workers);
  try {
    for (int i = 0; i < workers; ++i) {
      threads_.emplace_back([this, i] { worker_main(i); });
      const std::string name = "cmh-worker-" + std::to_string(i);
      pthread_setname_np(threads_.back().native_handle(), name.substr(0, 15).c_str());
    }
    // A worker's own set-up allocates (its alternate signal stack); it must be over before
    // the first iteration's counters are read, or the first iteration would be charged.
    for (auto& slot : slots_) slot->ready.wait(false, std::memory_order_acquire);
    for (int i = 0; i < workers; ++i)
      if (const int error = slots_[i]->pin_error; error != 0)
        throw std::system_error(error, std::generic_category(),
                                "pinning worker " + std::to_string(i) + " to CPU " + std::to_string(cpus_[i]));
  } catch (...) {
    for (std::size_t i = 0; i < threads_.size(); ++i) post(static_cast<int>(i), Job{});
    for (auto& t : threads_) t.join();
    throw;
  }
}

WorkerPool::~WorkerPool() {
  wait();
  for (int i = 0; i < size(); ++i) post(i, Job{});  // a job without a function means: exit
  for (auto& t : threads_) t.join();
}

void WorkerPool::post(int worker, Job job) {
  Slot& slot = *slots_[worker];
  slot.job = job;
  slot.failure.reset();
  {
    std::lock_guard<std::mutex> hold(mutex_);
    ++running_;
  }
  slot.posted.fetch_add(1, std::memory_order_release);
  slot.posted.notify_one();
}

void WorkerPool::post_all(Job job) {
  for (int i = 0; i < size(); ++i) post(i, job);
}

bool WorkerPool::wait_until(Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_until(lock, deadline, [&] { return running_ == 0; });
}

void WorkerPool::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return running_ == 0; });
}

int WorkerPool::failure_count() {
  std::lock_guard<std::mutex> hold(mutex_);
  return failures_;
}

bool WorkerPool::sleep_unless_failed(Clock::time_point deadline, int failures_seen) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_until(lock, deadline, [&] { return failures_ != failures_seen; });
}

std::vector<int> WorkerPool::thread_ids() const {
  std::vector<int> tids;
  for (const auto& slot : slots_) tids.push_back(slot->tid);
  return tids;
}

std::optional<Failure> WorkerPool::first_failure() const {
  for (const auto& slot : slots_)
    if (slot->failure) return slot->failure;
  return std::nullopt;
}

void WorkerPool::worker_main(int index) {
  Slot& slot = *slots_[index];
  slot.tid = static_cast<int>(::gettid());
  if (static_cast<std::size_t>(index) < cpus_.size()) slot.pin_error = machine::set_thread_affinity({cpus_[index]});
  const StackGuard guard;  // a stack overflow in the benchmark is reported as one
  slot.ready.store(true, std::memory_order_release);
  slot.ready.notify_one();
  std::uint32_t seen = 0;
  for (;;) {
    slot.posted.wait(seen, std::memory_order_acquire);
    seen = slot.posted.load(std::memory_order_acquire);
    const Job job = slot.job;
    if (job.run == nullptr) {
      std::lock_guard<std::mutex> hold(mutex_);
      --running_;
      changed_.notify_all();
      return;
    }
    bool failed = false;
    try {
      job.run(job.context, index);
    } catch (abi::__forced_unwind&) {
      throw;  // thread cancellation must unwind
    } catch (...) {
      slot.failure = failure_from_current_exception();
      failed = true;
    }
    std::lock_guard<std::mutex> hold(mutex_);
    --running_;
    if (failed) ++failures_;
    changed_.notify_all();
  }
}

}  // namespace cmh::engine

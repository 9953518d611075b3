// SPDX-License-Identifier: MIT
// The allocator's only lock: a test-and-test-and-set spin lock that yields after a
// short spin. It guards slow-path structures (node region pools, heap pools, the
// bootstrap heap, metadata); the fast paths never take it. Zero-initialised state is
// "unlocked", so locks need no constructor and can live in static storage.
#pragma once

#include <atomic>

#include "prim.hpp"

namespace cmh::allocator {

class SpinLock {
 public:
  void lock() {
    for (int spins = 0;; ++spins) {
      if (!state_.exchange(1, std::memory_order_acquire)) return;
      while (state_.load(std::memory_order_relaxed)) {
        if (++spins > 64) {
          prim::yield();
        } else {
          __builtin_ia32_pause();
        }
      }
    }
  }
  /// One attempt, never waits (the purge thread, -Xmx reclaim of other threads' heaps).
  bool try_lock() {
    return state_.load(std::memory_order_relaxed) == 0 && !state_.exchange(1, std::memory_order_acquire);
  }
  void unlock() { state_.store(0, std::memory_order_release); }
  /// In a fork child: the parent's holder does not exist there.
  void reset() { state_.store(0, std::memory_order_relaxed); }

 private:
  std::atomic<unsigned> state_{0};
};

class LockGuard {
 public:
  explicit LockGuard(SpinLock& lock) : lock_(lock) { lock_.lock(); }
  ~LockGuard() { lock_.unlock(); }
  LockGuard(const LockGuard&) = delete;
  LockGuard& operator=(const LockGuard&) = delete;

 private:
  SpinLock& lock_;
};

}  // namespace cmh::allocator

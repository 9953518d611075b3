// SPDX-License-Identifier: MIT
// How a trial's threads are laid out (JMH's distributeThreads): thread groups of
// `sum(threads per member)` threads each, every group running each member on
// its share of threads, as many groups as the thread count asks for.
#pragma once

#include <cmh/params.hpp>

#include <vector>

namespace cmh::engine {

struct ThreadLayout {
  int group_size = 1;
  int group_count = 1;
  std::vector<ThreadParams> threads;  ///< one per worker, by thread index
};

/// Resolves kThreadsMax / kThreadsHalfMax against the machine's CPU count.
int resolve_thread_count(int requested);

/// `requested` total threads (rounded up to whole groups), `per_member` threads
/// of each member in a group ({1} for an ordinary benchmark).
ThreadLayout distribute_threads(int requested, const std::vector<int>& per_member);

}  // namespace cmh::engine

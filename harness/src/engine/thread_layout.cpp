// SPDX-License-Identifier: MIT
// Thread layout: total threads, groups and the ThreadParams of every worker.
#include "engine/thread_layout.hpp"

#include <algorithm>
#include <numeric>
#include <thread>

namespace cmh::engine {

int resolve_thread_count(int requested) {
  const int cpus = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (requested == kThreadsMax) return cpus;
  if (requested == kThreadsHalfMax) return (cpus + 1) / 2;
  return std::max(1, requested);
}

ThreadLayout distribute_threads(int requested, const std::vector<int>& per_member) {
  ThreadLayout layout;
  const std::vector<int> members = per_member.empty() ? std::vector<int>{1} : per_member;
  layout.group_size = std::accumulate(members.begin(), members.end(), 0);
  const int total = resolve_thread_count(requested);
  layout.group_count = (total + layout.group_size - 1) / layout.group_size;
  const int threads = layout.group_count * layout.group_size;
  layout.threads.resize(threads);
  for (int t = 0; t < threads; ++t) {
    ThreadParams& p = layout.threads[t];
    p.thread_index = t;
    p.thread_count = threads;
    p.group_index = t / layout.group_size;
    p.group_count = layout.group_count;
    p.group_thread_index = t % layout.group_size;
    p.group_thread_count = layout.group_size;
    p.subgroup_count = static_cast<int>(members.size());
    int start = 0;
    for (int m = 0; m < static_cast<int>(members.size()); ++m) {
      if (p.group_thread_index < start + members[m]) {
        p.subgroup_index = m;
        p.subgroup_thread_index = p.group_thread_index - start;
        p.subgroup_thread_count = members[m];
        break;
      }
      start += members[m];
    }
  }
  return layout;
}

}  // namespace cmh::engine

// SPDX-License-Identifier: MIT
// detect_allocator_state() and the per-benchmark view over forks (see allocator_state.hpp).
#include "model/allocator_state.hpp"

#include <string>

namespace cmh::model {

AllocatorState detect_allocator_state(const AllocatorApi& api) {
  AllocatorState s;
  s.known = true;
  s.numa_mode = "off";
  if (api.numa_mode == nullptr) {
    s.numa_reason = "allocator not linked";
    s.options = "allocator not linked";
    return s;
  }
  const char* reason = nullptr;
  s.numa_mode = api.numa_mode(&reason) > 0 ? "on" : "off";
  s.numa_reason = reason != nullptr ? reason : "";
  // An allocator of API version 1 without cmh_alloc_numa_nodes: the reason names the nodes.
  const char* nodes = api.numa_nodes != nullptr ? api.numa_nodes() : nullptr;
  s.numa_nodes = nodes != nullptr ? nodes : "";
  const char* options = api.options_string != nullptr ? api.options_string() : nullptr;
  s.options = options != nullptr ? options : "";
  return s;
}

std::string numa_summary(const AllocatorState& state) {
  if (!state.known) return "unknown (the fork did not report)";
  std::string text = state.numa_mode;
  if (!state.numa_nodes.empty()) text += " (nodes " + state.numa_nodes + ")";
  if (!state.numa_reason.empty()) text += ": " + state.numa_reason;
  return text;
}

ForksAllocatorView forks_allocator_view(const std::vector<ForkResult>& forks) {
  ForksAllocatorView view;
  for (const auto& fork : forks) {
    if (!fork.allocator.known) continue;
    if (!view.common.known)
      view.common = fork.allocator;
    else if (!(fork.allocator == view.common))
      view.differs = true;
  }
  return view;
}

namespace {

template <typename Text>
std::string per_fork(const std::vector<ForkResult>& forks, Text text) {
  const ForksAllocatorView view = forks_allocator_view(forks);
  if (!view.differs) return text(view.common);
  std::string out;
  for (const auto& fork : forks)
    out += (out.empty() ? "" : "; ") + std::string("fork ") + std::to_string(fork.index) + ": " + text(fork.allocator);
  return out;
}

}  // namespace

std::string forks_numa_text(const std::vector<ForkResult>& forks) { return per_fork(forks, numa_summary); }

std::string forks_options_text(const std::vector<ForkResult>& forks) {
  return per_fork(forks, [](const AllocatorState& a) { return a.known ? a.options : std::string("unknown"); });
}

}  // namespace cmh::model

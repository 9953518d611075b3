// SPDX-License-Identifier: MIT
// add_samples(): decode, locate, unwind, aggregate (see profile_builder.hpp).
#include "sampling/profile_builder.hpp"

#include "sampling/code_map.hpp"
#include "sampling/sample_decoder.hpp"
#include "sampling/unwinder.hpp"

#include <linux/perf_event.h>

#include <memory>

namespace cmh::profilers::sampling {

void add_samples(const WindowSampler& sampler, Profile& profile, ForkProfile& fork) {
  const SamplerConfig& config = sampler.config();
  fork.events.resize(config.events.size());
  CodeMap map(profile);
  std::unique_ptr<DwarfUnwinder> unwinder;
  if (config.stacks == StackMode::dwarf) unwinder = std::make_unique<DwarfUnwinder>();
  std::vector<std::uint64_t> pcs;
  Stack stack;
  for_each_sample(sampler, [&](const DecodedSample& s) {
    if (s.event < 0 || static_cast<std::size_t>(s.event) >= fork.events.size()) return;
    EventSamples& into = fork.events[static_cast<std::size_t>(s.event)];
    const CodeAddress leaf = map.locate(s.ip, s.kernel);
    into.addresses[leaf].add(s.period);
    if (config.stacks == StackMode::none) return;
    stack.clear();
    bool complete = true;
    if (s.kernel) stack.push_back(leaf);
    if (config.stacks == StackMode::frame_pointers) {
      // The kernel's chain: context markers, then ips; the first user ip is where the
      // thread was (exact), the others are return addresses (moved into their call).
      bool first_user = true;
      bool user = false;
      for (const std::uint64_t ip : s.callchain) {
        if (ip >= PERF_CONTEXT_MAX) {
          user = ip == PERF_CONTEXT_USER;
          continue;
        }
        if (!user) continue;
        if (stack.size() >= kMaxStackDepth) {
          complete = false;
          break;
        }
        stack.push_back(map.locate(first_user ? ip : ip - 1, false));
        first_user = false;
      }
      // A frame-pointer walk cannot tell a complete stack from a broken one; the
      // analysis judges by the outermost frame (flame_graph.cpp).
    } else if (unwinder) {
      pcs.clear();
      complete = unwinder->unwind(s.tid, s.regs, s.stack, pcs, kMaxStackDepth);
      for (const std::uint64_t pc : pcs) stack.push_back(map.locate(pc, false));
      if (pcs.empty() && !s.kernel) stack.push_back(leaf);
    }
    if (!complete) ++fork.truncated;
    into.stacks[stack].add(s.period);
  });
  fork.threads = static_cast<std::uint32_t>(sampler.thread_count());
  fork.lost += sampler.lost();
  fork.dropped += sampler.dropped();
  fork.throttled += sampler.throttled();
}

}  // namespace cmh::profilers::sampling

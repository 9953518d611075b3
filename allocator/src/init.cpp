// SPDX-License-Identifier: MIT
// Start-up: on the first allocation (or the load-time constructor, whichever comes first)
// read CMH_ALLOC (and CMH_ALLOC_TOPOLOGY in the test builds), decide the NUMA mode, reserve
// the heap, commit -Xms; in the constructor also register the fork handlers and run the
// -XX:+AlwaysPreTouch touch threads (one per node, bound to it; JEP 345). Also the
// allocator's messages.
#include <errno.h>

#include <cstring>

#include "forward.hpp"
#include "internal.hpp"
#include "text.hpp"

namespace cmh::allocator {
namespace {

enum InitState : int { kNotStarted = 0, kReady = 2, kFailed = 3 };

std::atomic<int> g_init_state{kNotStarted};
SpinLock g_init_lock;
Options g_options;
Topology g_topology;
NodeLayout g_layout;
NumaDecision g_decision;
char g_options_text[256];
std::atomic<bool> g_oom_reported{false};   // the hook ran
std::atomic<bool> g_limit_reported{false};  // the heap-limit line was printed
std::atomic<cmh_alloc_oom_hook_t> g_oom_hook{nullptr};

void run_init() {
  const char* text = prim::get_env("CMH_ALLOC");
  if (forward::configure(text)) {
    // Another allocator serves this process (forward.hpp): no heap, no NUMA placement.
    TextBuffer reason(g_decision.reason, sizeof(g_decision.reason));
    reason.add(forward::numa_reason());
    g_init_state.store(kReady, std::memory_order_release);
    return;
  }
  g_options = parse_options(text, report_line);
  load_topology(&g_topology, report_line);
  g_decision = decide_numa(g_topology, g_options.use_numa);
  if (g_options.use_numa == 1 && g_decision.mode == 0) {
    char line[256];
    TextBuffer text(line, sizeof(line));
    text.add("NUMA support disabled: ").add(g_decision.reason).add('\n');
    report_line(line);
  }
  build_layout(g_topology, g_decision, &g_layout);
  const bool ok = region_space_init(g_options.max_heap, g_options.region_shift, g_options.decay_ms, g_layout,
                                    g_decision.mode != 0);
  format_options(g_options, g_decision.mode != 0, g_space.region_shift, g_options_text, sizeof(g_options_text));
  if (!ok) {
    g_init_state.store(kFailed, std::memory_order_release);
    return;
  }
  threads_install_key();
  if (g_options.initial_heap) region_commit_initial(g_options.initial_heap);
  g_init_state.store(kReady, std::memory_order_release);
}

// The -Xms regions are in the node pools before this runs: blocks allocated before the
// constructor (ld.so, libc and libstdc++ start-up, a preinit function) already live in
// them, and other threads may take regions while touching goes on. So touching never
// stores a value (prim::populate); a store of zero per page once cut the low byte of live
// pointers and free-list links (issue 24: a cyclic free list hung fork start-up).
void touch_node(void* arg) {
  const int node = static_cast<int>(reinterpret_cast<intptr_t>(arg));
  const NodeArena& a = g_space.nodes[node];
  for (uint32_t r = a.first; r < a.high; ++r) {
    if (!g_space.regions[r].pinned) continue;
    (void)prim::populate(reinterpret_cast<void*>(region_address(r)), g_space.region_size);
  }
}

void pretouch() {
  for (int n = 0; n < g_space.node_count; ++n) {
    void* arg = reinterpret_cast<void*>(static_cast<intptr_t>(n));
    // Bound to the node's CPUs; CPUs of an injected topology may not exist: then unbound.
    if (prim::run_on_thread(g_layout.cpus[n], touch_node, arg) != 0) prim::run_on_thread(CpuSet{}, touch_node, arg);
  }
}

__attribute__((constructor(101))) void startup() {
  if (!ensure_initialized()) return;
  if (forward::g_on) {
    forward::install();
    return;
  }
  threads_install_atfork();
  if (g_options.always_pretouch && g_options.initial_heap) pretouch();
}

}  // namespace

bool ensure_initialized() {
  int state = g_init_state.load(std::memory_order_acquire);
  if (CMH_LIKELY(state == kReady)) return true;
  if (state == kFailed) return false;
  LockGuard guard(g_init_lock);
  state = g_init_state.load(std::memory_order_acquire);
  if (state == kNotStarted) run_init();
  return g_init_state.load(std::memory_order_acquire) == kReady;
}

bool process_ready() { return g_init_state.load(std::memory_order_acquire) == kReady; }

const Options& options() { return g_options; }
const NumaDecision& numa_decision() { return g_decision; }
const char* options_text() { return forward::g_on ? forward::options_text() : g_options_text; }

void report_line(const char* line) { prim::write_stderr(line, strlen(line)); }

void set_oom_hook(cmh_alloc_oom_hook_t hook) { g_oom_hook.store(hook, std::memory_order_release); }

void* out_of_memory(size_t size) {
  const uint64_t limit = g_space.heap_limit;
  const bool heap_limit = limit && tls_limit_refused;
  tls_limit_refused = false;
  errno = ENOMEM;
  // A request larger than the whole reservation can never succeed: it is the caller's
  // mistake (malloc(SIZE_MAX)), not a heap running out. NULL and ENOMEM, nothing else, as
  // glibc, jemalloc and tcmalloc do.
  if (size > g_hot.size) return nullptr;
  char line[256];
  TextBuffer text(line, sizeof(line));
  if (heap_limit) {
    text.add("cmh-alloc: heap limit reached (-Xmx").add_size(limit).add("): cannot allocate ").add_uint(size)
        .add(" bytes\n");
    // The heap limit is cmh's own policy, which no other allocator has: one line says why
    // malloc failed (once per process). An OS refusal prints nothing, like other allocators.
    if (!g_limit_reported.exchange(true, std::memory_order_relaxed)) report_line(line);
  } else {
    text.add("cmh-alloc: out of memory: cannot allocate ").add_uint(size)
        .add(" bytes (the OS refused memory or the heap's address space is exhausted)\n");
  }
  if (!g_oom_reported.exchange(true, std::memory_order_relaxed)) {
    if (const cmh_alloc_oom_hook_t hook = g_oom_hook.load(std::memory_order_acquire)) hook(heap_limit ? 1 : 0, line);
  }
  return nullptr;
}

}  // namespace cmh::allocator

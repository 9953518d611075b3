// SPDX-License-Identifier: MIT
// NUMA: the binding table of JDK-8205051 (each row a fresh process with an injected
// topology, CMH_ALLOC_TOPOLOGY), region placement on the node a thread runs on, fallback
// to another node when a node's share of -Xmx runs out, and (subcommand "real", run under
// numactl --membind=0 --cpunodebind=0) the machine's own policy plus real mbind on node 0.
// Multi-node logic is checked on injected topologies only; whatever depends on the real
// machine (which injected nodes exist, the decision without injection) is asked of
// libnuma, so the suite holds on one node and on many.
#include <cmh/alloc.h>
#include <cmh/alloc_testing.h>
#include <linux/mempolicy.h>
#include <numa.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

using cmh_test::run_child;
using cmh_test::self_path;

const char* const kFourNodes = "node0=0;node1=1;node2=2;node3=3";

struct Row {
  const char* name;
  std::string topology;
  const char* options;  // CMH_ALLOC
  int mode;
  const char* reason;   // expected substring
  int stderr_lines;     // lines expected on stderr
};

std::string four(const char* rest) { return std::string(kFourNodes) + ";" + rest; }

// Whether node `n` exists on this machine with memory, as libnuma sees it: the
// allocator's mbind is real for such an injected node and only recorded otherwise.
bool machine_has_memory_node(int n) {
  if (numa_available() < 0 || n > numa_max_node()) return false;
  struct bitmask* nodes = numa_get_mems_allowed();
  const bool allowed = nodes != nullptr && numa_bitmask_isbitset(nodes, static_cast<unsigned>(n));
  if (nodes) numa_bitmask_free(nodes);
  long long free_bytes = 0;
  return allowed && numa_node_size64(n, &free_bytes) > 0;
}

// JDK-8205051's decision for this process, computed from libnuma's own masks (the way
// HotSpot reads them), independently of the allocator: {mode, expected reason prefix}.
std::pair<int, std::string> libnuma_decision() {
  if (numa_available() < 0) return {0, "get_mempolicy is not available"};
  if (numa_max_node() < 1) return {0, "Only a single NUMA node is available"};
  struct bitmask* interleave = numa_get_interleave_mask();
  struct bitmask* membind = numa_get_membind();
  struct bitmask* run = numa_get_run_node_mask();
  const bool interleaved = numa_bitmask_weight(interleave) > 0;
  struct bitmask* memory = interleaved ? interleave : membind;
  // Memory-less nodes hold no pages: libnuma's membind mask of "all nodes" counts only
  // nodes with memory, as the allocator's memory mask does.
  for (int n = 0; n <= numa_max_node(); ++n) {
    long long free_bytes = 0;
    if (numa_bitmask_isbitset(memory, static_cast<unsigned>(n)) && numa_node_size64(n, &free_bytes) <= 0)
      numa_bitmask_clearbit(memory, static_cast<unsigned>(n));
  }
  std::pair<int, std::string> d;
  if (numa_bitmask_weight(memory) <= 1)
    d = {0, "The process is bound to a single NUMA node"};
  else if (!numa_bitmask_equal(memory, run))
    d = {0, "The process memory and cpu node configuration does not match"};
  else
    d = {interleaved ? CMH_ALLOC_NUMA_INTERLEAVE : CMH_ALLOC_NUMA_MEMBIND, "UseNUMA is enabled"};
  numa_bitmask_free(interleave);
  numa_bitmask_free(membind);
  numa_bitmask_free(run);
  return d;
}

// The child side of a table row: report what the allocator decided, after using it a little.
int report() {
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([] {
      std::vector<std::string> strings(1000, std::string(100, 'x'));
    });
  for (auto& t : threads) t.join();
  const char* reason = nullptr;
  const int mode = cmh_alloc_numa_mode(&reason);
  std::printf("mode=%d\nreason=%s\noptions=%s\nnodes=%s\n", mode, reason, cmh_alloc_options_string(),
              cmh_alloc_numa_nodes());
  return 0;
}

void table() {
  const Row rows[] = {
      {"cpunodebind 0,1 membind 0-3", four("cpunodebind=0,1;policy=bind:0-3"), "", 0,
       "The process memory and cpu node configuration does not match", 0},
      {"cpunodebind 0,1 membind 0,1", four("cpunodebind=0,1;policy=bind:0,1"), "", 1, "'membind' mode on nodes 0-1", 0},
      {"localalloc, cpunodebind 0,1", four("cpunodebind=0,1;policy=local"), "", 0,
       "The process memory and cpu node configuration does not match", 0},
      {"preferred 1, cpunodebind 0,1", four("cpunodebind=0,1;policy=preferred:1"), "", 0,
       "The process memory and cpu node configuration does not match", 0},
      {"interleave 0,1, cpunodebind 0,1", four("cpunodebind=0,1;policy=interleave:0,1"), "", 2,
       "'interleave' mode on nodes 0-1", 0},
      {"interleave 0-3, cpunodebind 0,1", four("cpunodebind=0,1;policy=interleave:0-3"), "", 0,
       "The process memory and cpu node configuration does not match", 0},
      {"single node", "node0=0-1;policy=default", "", 0, "Only a single NUMA node is available", 0},
      {"membind 2, cpunodebind 2", four("cpunodebind=2;policy=bind:2"), "", 0, "The process is bound to a single NUMA node", 0},
      // Both rules hold: the reason names both, the mismatch with its masks.
      {"membind 1, cpunodebind 0", four("cpunodebind=0;policy=bind:1"), "", 0,
       "The process is bound to a single NUMA node, and its memory and cpu node configuration does not match "
       "(cpu nodes 0, memory nodes 1)", 0},
      {"preferred 0, cpunodebind 1, memory 0 only", four("cpunodebind=1;memory=0;policy=preferred:0"), "", 0,
       "The process is bound to a single NUMA node, and its memory and cpu node configuration does not match", 0},
      {"get_mempolicy forbidden", four("cpunodebind=0-3;policy=unavailable"), "", 0, "get_mempolicy is not available: EPERM", 0},
      {"no binding, default policy", four("cpunodebind=0-3;policy=default"), "", 1, "'membind' mode on nodes 0-3", 0},
      {"localalloc, all nodes", four("cpunodebind=0-3;policy=local"), "", 1, "'membind' mode on nodes 0-3", 0},
      {"interleave 0-3, all nodes", four("cpunodebind=0-3;policy=interleave:0-3"), "", 2, "'interleave' mode on nodes 0-3", 0},
      {"memory-less nodes 2,3", four("cpunodebind=0,1;memory=0,1;policy=default"), "", 1, "'membind' mode on nodes 0-1", 0},
      {"-XX:-UseNUMA", four("cpunodebind=0-3;policy=default"), "-XX:-UseNUMA", 0, "UseNUMA is off (-XX:-UseNUMA)", 0},
      {"-XX:+UseNUMA, matching masks", four("cpunodebind=0-3;policy=default"), "-XX:+UseNUMA", 1, "'membind' mode", 0},
      // Explicit +UseNUMA that cannot be honoured says so, once.
      {"-XX:+UseNUMA, mismatch", four("cpunodebind=0,1;policy=bind:0-3"), "-XX:+UseNUMA", 0,
       "The process memory and cpu node configuration does not match", 1},
  };
  const std::string self = self_path();
  // A malformed topology is reported once and the machine's own is used: the same
  // decision as a run without injection, which is what libnuma's masks imply.
  const auto machine = libnuma_decision();
  auto plain = run_child({self, "report"}, {"CMH_ALLOC_TOPOLOGY=", "CMH_ALLOC="});
  auto malformed = run_child({self, "report"}, {"CMH_ALLOC_TOPOLOGY=node0=0;bogus", "CMH_ALLOC="});
  if (plain.out.find("mode=" + std::to_string(machine.first) + "\n") == std::string::npos ||
      plain.out.find("reason=" + machine.second) == std::string::npos) {
    std::fprintf(stderr, "machine: libnuma implies mode %d, '%s'; the allocator says:\n%s", machine.first,
                 machine.second.c_str(), plain.out.c_str());
    CHECK(false);
  }
  CHECK(malformed.code() == 0 && malformed.out == plain.out);
  CHECK_EQ(cmh_test::count_lines(malformed.err, "\n"), 1);
  CHECK(malformed.err.find("cmh-alloc: ignoring malformed CMH_ALLOC_TOPOLOGY") == 0);
  for (const Row& row : rows) {
    auto child = run_child({self, "report"}, {"CMH_ALLOC_TOPOLOGY=" + row.topology, std::string("CMH_ALLOC=") + row.options});
    const std::string expected_mode = "mode=" + std::to_string(row.mode) + "\n";
    const bool ok = child.code() == 0 && child.out.find(expected_mode) != std::string::npos &&
                    child.out.find(row.reason) != std::string::npos &&
                    cmh_test::count_lines(child.err, "\n") == row.stderr_lines;
    if (!ok)
      std::fprintf(stderr, "row '%s': expected mode %d, reason containing '%s', %d stderr line(s); got:\n%s%s\n",
                   row.name, row.mode, row.reason, row.stderr_lines, child.out.c_str(), child.err.c_str());
    CHECK(ok);
    // The node list is empty exactly when NUMA mode is off.
    CHECK((child.out.find("nodes=\n") != std::string::npos) == (row.mode == 0));
    if (row.stderr_lines == 1 && row.mode == 0 && row.options[0])
      CHECK(child.err.find("NUMA support disabled: ") == 0);
  }
}

int node_of_fresh_block(size_t size) {
  void* p = malloc(size);
  const int node = cmh_alloc_node_of(p);
  free(p);
  return node;
}

// Child, with four injected nodes: threads placed on each node's CPU get that node's memory.
int placement() {
  const char* reason = nullptr;
  CHECK_EQ(cmh_alloc_numa_mode(&reason), CMH_ALLOC_NUMA_MEMBIND);
  CHECK(std::string(cmh_alloc_numa_nodes()) == "0-3");
  cmh_alloc_stats_t at_start;
  CHECK(cmh_alloc_stats_get(cmh_alloc_stats_init(&at_start)));
  uint64_t thread_bytes[4] = {};
  for (int cpu = 0; cpu < 4; ++cpu) {
    std::thread([cpu, &thread_bytes] {
      cmh_alloc_test_set_cpu(cpu);
      // Small blocks (a fresh heap's first page) and large blocks (a fresh page each).
      std::vector<void*> small;
      for (int i = 0; i < 100; ++i) small.push_back(malloc(64));
      for (void* p : small) CHECK_EQ(cmh_alloc_node_of(p), cpu);
      for (void* p : small) free(p);
      CHECK_EQ(node_of_fresh_block(300000), cpu);
      CHECK_EQ(node_of_fresh_block(9 << 20), cpu);  // huge: whole regions of that node
      thread_bytes[cpu] = cmh_alloc_thread_allocated_bytes();
    }).join();
  }
  // A thread that migrates: its next page refill notices and takes the new node's memory.
  std::thread([] {
    cmh_alloc_test_set_cpu(1);
    void* before = malloc(200000);
    CHECK_EQ(cmh_alloc_node_of(before), 1);
    void* warm = cmh_test::escape(malloc(64));  // a node-1 page of 64-byte blocks
    CHECK_EQ(cmh_alloc_node_of(warm), 1);
    cmh_alloc_test_set_cpu(3);
    void* after = malloc(200000);
    CHECK_EQ(cmh_alloc_node_of(after), 3);
    // Small blocks from the node-1 page it still holds, now that its heap is on node 3:
    // remote bytes of node 1.
    void* small[10];
    for (void*& p : small) p = cmh_test::escape(malloc(64));
    for (void* p : small) CHECK_EQ(cmh_alloc_node_of(p), 1);
    for (void* p : small) free(p);
    free(warm);
    free(before);
    free(after);
  }).join();
  cmh_alloc_stats_t stats;
  CHECK(cmh_alloc_stats_get(cmh_alloc_stats_init(&stats)));
  CHECK_EQ(stats.node_count, 4u);
  // Per-node cumulative counters: they split the process total exactly (only this thread
  // is alive, and it is not allocating), each node's local share holds at least what the
  // thread placed there allocated, and the migrated thread's small blocks are remote.
  uint64_t node_sum = 0;
  for (int n = 0; n < 4; ++n) {
    const cmh_alloc_node_stats_t& row = stats.nodes[n];
    node_sum += row.alloc_bytes;
    CHECK(row.local_bytes <= row.alloc_bytes);
    CHECK(row.local_count <= row.alloc_count);
    CHECK(row.local_bytes - at_start.nodes[n].local_bytes >= thread_bytes[n]);
    CHECK(thread_bytes[n] > (9u << 20));
  }
  CHECK_EQ(node_sum, stats.total_allocated_bytes);
  CHECK((stats.nodes[1].alloc_bytes - stats.nodes[1].local_bytes) -
            (at_start.nodes[1].alloc_bytes - at_start.nodes[1].local_bytes) >= 640u);
  cmh_alloc_node_alloc_t rows[CMH_ALLOC_MAX_NODES];
  CHECK_EQ(cmh_alloc_node_allocations(rows, CMH_ALLOC_MAX_NODES), 4u);
  for (int n = 0; n < 4; ++n) CHECK(rows[n].alloc_bytes >= stats.nodes[n].alloc_bytes);
  for (int n = 0; n < 4; ++n) {
    const cmh_alloc_node_stats_t& row = stats.nodes[n];
    CHECK_EQ(row.node_id, n);
    CHECK(row.page_requests > 0);
    CHECK_EQ(row.page_hits, row.page_requests);  // nothing ran out: every page on its node
    CHECK_EQ(row.page_fallbacks, 0u);
    // Nodes that exist here (with memory) get a real mbind; the others are only recorded.
    if (machine_has_memory_node(n)) {
      CHECK(row.bind_calls > 0);
      CHECK_EQ(row.bind_failures, 0u);
    } else {
      CHECK_EQ(row.bind_calls, 0u);
      CHECK(row.simulated_binds > 0);
    }
  }
  return cmh_test::done("alloc:numa-placement (child)");
}

// Child, two injected nodes and -Xmx16m: node 0's 8 MiB share runs out, then node 1 serves.
int fallback() {
  CHECK_EQ(cmh_alloc_numa_mode(nullptr), CMH_ALLOC_NUMA_MEMBIND);
  cmh_alloc_test_set_cpu(0);
  std::vector<void*> blocks;
  bool saw_node0 = false, saw_node1_after_node0 = false, hit_limit = false;
  for (int i = 0; i < 200; ++i) {
    void* p = malloc(256 << 10);
    if (!p) {
      hit_limit = true;
      break;
    }
    const int node = cmh_alloc_node_of(p);
    if (node == 0) saw_node0 = true;
    if (node == 1 && saw_node0) saw_node1_after_node0 = true;
    CHECK(node == 0 || node == 1);
    blocks.push_back(p);
  }
  CHECK(saw_node0);
  CHECK(saw_node1_after_node0);
  CHECK(hit_limit);  // and once both shares are used, -Xmx stops it
  cmh_alloc_stats_t stats;
  CHECK(cmh_alloc_stats_get(cmh_alloc_stats_init(&stats)));
  CHECK(stats.nodes[0].page_requests > stats.nodes[0].page_hits);  // some node-0 requests went elsewhere
  CHECK(stats.nodes[1].page_fallbacks > 0);                         // ... to node 1
  // Node 1 served its whole share; node 0 only went beyond its share once node 1's was used
  // too (the share steers placement, -Xmx is the limit).
  CHECK(stats.nodes[1].in_use_bytes + (256u << 10) > (8u << 20));
  CHECK(stats.nodes[0].in_use_bytes + stats.nodes[1].in_use_bytes <= (16u << 20));
  for (void* p : blocks) free(p);
  return cmh_test::done("alloc:numa-fallback (child)");
}

long get_mempolicy_raw(int* mode, unsigned long* mask, unsigned long maxnode, const void* addr, unsigned long flags) {
  return syscall(SYS_get_mempolicy, mode, mask, maxnode, addr, flags);
}

// Under numactl --membind=0 --cpunodebind=0.
int real_policy() {
  int mode = -1;
  unsigned long mask[16] = {};
  CHECK_EQ(get_mempolicy_raw(&mode, mask, 1024, nullptr, 0), 0);
  if (mode != MPOL_BIND || mask[0] != 1) {
    std::fprintf(stderr, "not running under numactl --membind=0 (mode %d, mask %lx)\n", mode, mask[0]);
    return 1;
  }
  // Bound to node 0: NUMA mode is off, because the machine has one node or because the
  // memory policy names one node, whichever libnuma says holds.
  auto plain = run_child({self_path(), "report"}, {"CMH_ALLOC_TOPOLOGY="});
  const char* why = numa_max_node() < 1 ? "Only a single NUMA node is available" : "The process is bound to a single NUMA node";
  CHECK(plain.out.find("mode=0\n") != std::string::npos);
  if (plain.out.find(why) == std::string::npos) {
    std::fprintf(stderr, "expected '%s', got:\n%s", why, plain.out.c_str());
    CHECK(false);
  }
  // Two injected nodes, node 0 the real one: its regions are really mbind-ed to node 0.
  auto bound = run_child({self_path(), "real-bind"}, {"CMH_ALLOC_TOPOLOGY=node0=0;node1=1;cpunodebind=0,1;policy=default"});
  if (bound.code() != 0) std::fprintf(stderr, "%s%s", bound.out.c_str(), bound.err.c_str());
  CHECK_EQ(bound.code(), 0);
  return cmh_test::done("alloc:numa-real");
}

int real_bind() {
  CHECK_EQ(cmh_alloc_numa_mode(nullptr), CMH_ALLOC_NUMA_MEMBIND);
  cmh_alloc_test_set_cpu(0);
  auto* p = static_cast<char*>(malloc(300000));
  CHECK_EQ(cmh_alloc_node_of(p), 0);
  // The region carries the binding (the mapping's policy), and the touched page is on node 0.
  int mode = -1;
  unsigned long mask[16] = {};
  CHECK_EQ(get_mempolicy_raw(&mode, mask, 1024, p, MPOL_F_ADDR), 0);
  CHECK_EQ(mode, MPOL_BIND);
  CHECK_EQ(mask[0], 1ul);
  p[0] = 1;
  int node = -1;
  CHECK_EQ(get_mempolicy_raw(&node, nullptr, 0, p, MPOL_F_NODE | MPOL_F_ADDR), 0);
  CHECK_EQ(node, 0);
  free(p);
  cmh_alloc_stats_t stats;
  cmh_alloc_stats_get(cmh_alloc_stats_init(&stats));
  CHECK(stats.nodes[0].bind_calls > 0);
  CHECK_EQ(stats.nodes[0].bind_failures, 0u);
  return cmh_test::done("alloc:numa-real (child)");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "report") return report();
  if (command == "placement") return placement();
  if (command == "fallback") return fallback();
  if (command == "real") return real_policy();
  if (command == "real-bind") return real_bind();
  if (command == "table") {
    table();
    return cmh_test::done("alloc:numa-table");
  }
  if (command == "placement-run" || command == "fallback-run") {
    const bool is_placement = command == "placement-run";
    auto child = is_placement
                     ? run_child({self_path(), "placement"}, {std::string("CMH_ALLOC_TOPOLOGY=") + four("cpunodebind=0-3;policy=default")})
                     : run_child({self_path(), "fallback"},
                                 {"CMH_ALLOC_TOPOLOGY=node0=0;node1=1;cpunodebind=0,1;policy=default",
                                  "CMH_ALLOC=-Xmx16m -XX:RegionSize=1m"});
    std::fputs(child.out.c_str(), stdout);
    std::fputs(child.err.c_str(), stderr);
    // The fallback child ends at -Xmx: exactly one line says so.
    if (!is_placement) CHECK_EQ(cmh_test::count_lines(child.err, "cmh-alloc: heap limit reached (-Xmx16m)"), 1);
    return child.code() == 0 ? cmh_test::done(command.c_str()) : 1;
  }
  std::fprintf(stderr, "usage: %s table|placement-run|fallback-run|real\n", argv[0]);
  return 2;
}

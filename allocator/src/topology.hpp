// SPDX-License-Identifier: MIT
// The NUMA topology and the start-up NUMA decision (JDK-8205051's rules): nodes, the
// cpu->node map, distances, the CPU binding (affinity) and the memory policy, read from
// sysfs and raw syscalls without allocating, or injected through CMH_ALLOC_TOPOLOGY in the
// test builds (allocator/testing/). From them: whether NUMA mode is on (with the reason) and the layout the heap
// uses: logical nodes, cpu -> logical node, and each node's fallback order.
#pragma once

#include "bits.hpp"
#include "config.hpp"

namespace cmh::allocator {

struct Topology {
  int node_count = 0;
  int node_ids[kMaxNodes] = {};     ///< configured node ids, ascending
  NodeMask all_nodes = 0;
  NodeMask memory_nodes = 0;        ///< nodes that have memory
  NodeMask allowed_mems = ~NodeMask{0};  ///< cpuset's mems_allowed
  CpuSet node_cpus[kMaxNodes];      ///< by node id
  uint8_t distance[kMaxNodes][kMaxNodes] = {};  ///< by node id; 10 local, 20 remote default
  CpuSet affinity;                  ///< CPUs this process may run on
  NodeMask cpu_nodes = 0;           ///< nodes that hold a CPU of the affinity mask
  bool policy_available = true;     ///< get_mempolicy worked
  int policy_error = 0;
  int policy_mode = 0;              ///< MPOL_* of the process policy
  NodeMask policy_nodes = 0;
  bool ids_too_large = false;       ///< a node id >= 64 exists
  bool injected = false;            ///< came from CMH_ALLOC_TOPOLOGY
  NodeMask real_nodes = 0;          ///< ids that exist on this machine: mbind is real for them
};

struct NumaDecision {
  int mode = 0;        ///< cmh_alloc_numa_t
  NodeMask nodes = 0;  ///< nodes whose regions the heap uses when on
  char reason[192] = {};
  char node_list[192] = {};  ///< `nodes` as a list ("0-1"), empty when off
};

struct NodeLayout {
  int count = 1;                        ///< logical nodes (1 when NUMA is off)
  int node_id[kMaxNodes] = {-1};        ///< per logical node: node id, -1 when off
  bool real_bind[kMaxNodes] = {};       ///< mbind for real (else only recorded)
  uint8_t fallback[kMaxNodes][kMaxNodes] = {};  ///< other logical nodes, nearest first
  uint8_t cpu_to_node[kMaxCpus] = {};   ///< cpu -> logical node
  CpuSet cpus[kMaxNodes];               ///< CPUs of each logical node (touch threads)
};

/// Reads the machine's topology, or, in the test and debug builds, the one injected through
/// CMH_ALLOC_TOPOLOGY (testing_hooks.hpp). A malformed injection is reported through report()
/// and the machine's topology is used.
void load_topology(Topology* topology, void (*report)(const char*));

// Shared with the injection parser (allocator/testing/topology_injection.cpp).
void default_distances(Topology* topology);  ///< 10 local, 20 remote
/// node_count, node_ids and cpu_nodes from the masks.
void finish_topology(Topology* topology);
NodeMask parse_node_list(const char* text, size_t length, bool* ok, bool* too_large);
/// The machine's nodes with memory (sysfs has_memory), 0 when unreadable.
NodeMask machine_memory_nodes();

/// Applies the rules in order: -XX:-UseNUMA, get_mempolicy unavailable, single node,
/// bound to a single memory node, CPU node mask != memory node mask.
NumaDecision decide_numa(const Topology& topology, int use_numa_option);

void build_layout(const Topology& topology, const NumaDecision& decision, NodeLayout* layout);

}  // namespace cmh::allocator

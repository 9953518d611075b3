// SPDX-License-Identifier: MIT
// Topology detection, the NUMA decision and the node layout (see topology.hpp). Runs
// once at start-up, inside the first malloc: stack buffers and raw syscalls only. The
// decision texts follow HotSpot's so that a JMH user recognises them ("Only a single NUMA
// node is available", ...).
#include "topology.hpp"

#include <linux/mempolicy.h>

#include <cstring>

#include "prim.hpp"
#include "testing_hooks.hpp"
#include "text.hpp"

namespace cmh::allocator {

void default_distances(Topology* t) {
  for (size_t a = 0; a < kMaxNodes; ++a)
    for (size_t b = 0; b < kMaxNodes; ++b) t->distance[a][b] = a == b ? 10 : 20;
}

void finish_topology(Topology* t) {
  t->node_count = 0;
  for (int n = 0; n < 64; ++n)
    if (mask_has(t->all_nodes, n)) t->node_ids[t->node_count++] = n;
  t->cpu_nodes = 0;
  for (int i = 0; i < t->node_count; ++i) {
    int n = t->node_ids[i];
    if (t->node_cpus[n].intersects(t->affinity)) t->cpu_nodes |= mask_of(n);
  }
}

NodeMask parse_node_list(const char* text, size_t n, bool* ok, bool* too_large) {
  NodeMask mask = 0;
  *ok = parse_list(text, text + n, 1 << 20, [&](int v) {
    if (v >= 64)
      *too_large = true;
    else
      mask |= mask_of(v);
  });
  return mask;
}

NodeMask machine_memory_nodes() {
  char buf[1024];
  long n = prim::read_file("/sys/devices/system/node/has_memory", buf, sizeof(buf));
  bool ok = true, too_large = false;
  NodeMask machine = n > 0 ? parse_node_list(buf, static_cast<size_t>(n), &ok, &too_large) : 0;
  return ok ? machine : 0;
}

namespace {

constexpr int kWeightedInterleave = 6;  // MPOL_WEIGHTED_INTERLEAVE (Linux 6.9), not in older headers

void read_machine(Topology* t) {
  char buf[4096];
  default_distances(t);
  bool ok = true;
  long n = prim::read_file("/sys/devices/system/node/online", buf, sizeof(buf));
  t->all_nodes = n > 0 ? parse_node_list(buf, static_cast<size_t>(n), &ok, &t->ids_too_large) : 0;
  if (!ok || t->all_nodes == 0) t->all_nodes = 1;  // kernel without NUMA: one node 0
  n = prim::read_file("/sys/devices/system/node/has_memory", buf, sizeof(buf));
  bool too_large = false;
  t->memory_nodes = n > 0 ? parse_node_list(buf, static_cast<size_t>(n), &ok, &too_large) : 0;
  if (!ok || t->memory_nodes == 0) t->memory_nodes = t->all_nodes;
  t->real_nodes = t->all_nodes;

  CpuSet all_cpus;
  prim::affinity(&t->affinity);
  for (int node = 0; node < 64; ++node) {
    if (!mask_has(t->all_nodes, node)) continue;
    char path[96];
    TextBuffer p(path, sizeof(path));
    p.add("/sys/devices/system/node/node").add_uint(static_cast<uint64_t>(node)).add("/cpulist");
    n = prim::read_file(path, buf, sizeof(buf));
    if (n >= 0) {
      CpuSet& cpus = t->node_cpus[node];
      parse_list(buf, buf + n, static_cast<int>(kMaxCpus), [&](int c) { cpus.set(c); });
    }
    TextBuffer d(path, sizeof(path));
    d.add("/sys/devices/system/node/node").add_uint(static_cast<uint64_t>(node)).add("/distance");
    n = prim::read_file(path, buf, sizeof(buf));
    // "10 21 21 ..." in the order of the online nodes.
    const char* at = buf;
    const char* end = buf + (n > 0 ? n : 0);
    for (int other = 0; other < 64 && at < end; ++other) {
      if (!mask_has(t->all_nodes, other)) continue;
      while (at < end && (*at == ' ' || *at == '\n')) ++at;
      int v = 0;
      bool digits = false;
      while (at < end && *at >= '0' && *at <= '9') v = v * 10 + (*at++ - '0'), digits = true;
      if (digits) t->distance[node][other] = static_cast<uint8_t>(v > 255 ? 255 : v);
    }
    all_cpus.unite(t->node_cpus[node]);
  }
  if (all_cpus.empty()) t->node_cpus[lowest_bit(t->all_nodes)] = t->affinity;

  int mode = 0;
  NodeMask nodes = 0;
  int error = prim::process_mempolicy(&mode, &nodes);
  if (error != 0) {
    t->policy_available = false;
    t->policy_error = error;
  } else {
    t->policy_mode = mode;
    t->policy_nodes = nodes;
    NodeMask allowed = 0;
    if (prim::mems_allowed(&allowed) == 0 && allowed != 0) t->allowed_mems = allowed;
  }
  finish_topology(t);
}

}  // namespace

void load_topology(Topology* t, void (*report)(const char*)) {
  if (testing::inject_topology && testing::inject_topology(t, report)) return;
  read_machine(t);
}

NumaDecision decide_numa(const Topology& t, int use_numa_option) {
  NumaDecision d;
  TextBuffer reason(d.reason, sizeof(d.reason));
  d.mode = 0;
  if (use_numa_option == 0) {
    reason.add("UseNUMA is off (-XX:-UseNUMA)");
    return d;
  }
  if (t.ids_too_large) {
    reason.add("NUMA node ids above 63 are not supported");
    return d;
  }
  if (!t.policy_available) {
    reason.add("get_mempolicy is not available: ").add(prim::errno_name(t.policy_error));
    return d;
  }
  if (t.node_count < 2) {
    reason.add("Only a single NUMA node is available");
    return d;
  }
  const bool interleave = t.policy_mode == MPOL_INTERLEAVE || t.policy_mode == kWeightedInterleave;
  const bool bind = t.policy_mode == MPOL_BIND;
  // libnuma's numa_get_membind() reports all nodes for default, local and preferred.
  NodeMask memory = (bind || interleave) ? t.policy_nodes : (t.memory_nodes & t.allowed_mems);
  // Both rules can hold at once (--cpunodebind=0 --membind=1): then the reason says both,
  // since the mismatch is what the user most likely did not intend.
  const bool single = popcount(memory) <= 1;
  const bool mismatch = memory != t.cpu_nodes;
  if (single) reason.add("The process is bound to a single NUMA node");
  if (single && mismatch) reason.add(", and its memory and cpu node configuration does not match");
  if (!single && mismatch) reason.add("The process memory and cpu node configuration does not match");
  if (mismatch)
    reason.add(" (cpu nodes ").add_mask(t.cpu_nodes).add(", memory nodes ").add_mask(memory).add(")");
  if (single || mismatch) return d;
  d.mode = interleave ? 2 : 1;
  d.nodes = memory;
  TextBuffer(d.node_list, sizeof(d.node_list)).add_mask(memory);
  reason.add("UseNUMA is enabled in '").add(interleave ? "interleave" : "membind")
      .add("' mode on nodes ").add_mask(memory);
  return d;
}

void build_layout(const Topology& t, const NumaDecision& d, NodeLayout* layout) {
  *layout = NodeLayout{};
  if (d.mode == 0) {
    layout->count = 1;
    layout->node_id[0] = -1;
    layout->cpus[0] = t.affinity;
    return;
  }
  int count = 0;
  int logical_of[64];
  for (int n = 0; n < 64; ++n) {
    logical_of[n] = -1;
    if (!mask_has(d.nodes, n)) continue;
    logical_of[n] = count;
    layout->node_id[count] = n;
    layout->real_bind[count] = mask_has(t.real_nodes, n);
    layout->cpus[count] = t.node_cpus[n];
    ++count;
  }
  layout->count = count;
  // Fallback order: the other logical nodes by distance, then by id (insertion sort).
  for (int i = 0; i < count; ++i) {
    int from = layout->node_id[i];
    int k = 0;
    for (int j = 0; j < count; ++j) {
      if (j == i) continue;
      int pos = k++;
      while (pos > 0 && t.distance[from][layout->node_id[layout->fallback[i][pos - 1]]] >
                            t.distance[from][layout->node_id[j]]) {
        layout->fallback[i][pos] = layout->fallback[i][pos - 1];
        --pos;
      }
      layout->fallback[i][pos] = static_cast<uint8_t>(j);
    }
  }
  // cpu -> logical node; CPUs of nodes outside the set go to the nearest node in it
  // (HotSpot's rebuild_cpu_to_node_map).
  for (size_t cpu = 0; cpu < kMaxCpus; ++cpu) {
    int node = -1;
    for (int i = 0; i < t.node_count && node < 0; ++i)
      if (t.node_cpus[t.node_ids[i]].has(static_cast<int>(cpu))) node = t.node_ids[i];
    int logical = 0;
    if (node >= 0 && logical_of[node] >= 0) {
      logical = logical_of[node];
    } else if (node >= 0) {
      int best = 1 << 30;
      for (int j = 0; j < count; ++j) {
        int dist = t.distance[node][layout->node_id[j]];
        if (dist < best) best = dist, logical = j;
      }
    }
    layout->cpu_to_node[cpu] = static_cast<uint8_t>(logical);
  }
}

}  // namespace cmh::allocator

// SPDX-License-Identifier: MIT
// Topology detection, CMH_ALLOC_TOPOLOGY parsing, the NUMA decision and the node layout
// (see topology.hpp). Runs once at start-up, inside the first malloc: stack buffers and
// raw syscalls only. The decision texts follow HotSpot's so that a JMH user recognises
// them ("Only a single NUMA node is available", ...).
#include "topology.hpp"

#include <linux/mempolicy.h>

#include <cstring>

#include "prim.hpp"
#include "text.hpp"

namespace cmh::allocator {
namespace {

constexpr int kWeightedInterleave = 6;  // MPOL_WEIGHTED_INTERLEAVE (Linux 6.9), not in older headers

void default_distances(Topology* t) {
  for (size_t a = 0; a < kMaxNodes; ++a)
    for (size_t b = 0; b < kMaxNodes; ++b) t->distance[a][b] = a == b ? 10 : 20;
}

void finish(Topology* t) {
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
  finish(t);
}

// CMH_ALLOC_TOPOLOGY: entries separated by ';' or blanks, see allocator/README.md.
bool parse_injected(const char* text, Topology* t, char* why, size_t why_capacity) {
  TextBuffer err(why, why_capacity);
  default_distances(t);
  t->injected = true;
  bool have_affinity = false, have_policy = false, have_memory = false;
  NodeMask cpunodebind = 0;
  bool have_cpunodebind = false;
  const char* distance_text = nullptr;
  size_t distance_length = 0;
  const char* p = text;
  for (;;) {
    while (*p == ';' || *p == ' ' || *p == '\t' || *p == '\n') ++p;
    if (!*p) break;
    const char* entry = p;
    while (*p && *p != ';' && *p != ' ' && *p != '\t' && *p != '\n') ++p;
    const size_t n = static_cast<size_t>(p - entry);
    const char* eq = static_cast<const char*>(memchr(entry, '=', n));
    if (!eq) {
      err.add("entry '").add(entry, n).add("' has no '='");
      return false;
    }
    const size_t key_length = static_cast<size_t>(eq - entry);
    const char* value = eq + 1;
    const size_t value_length = n - key_length - 1;
    auto key_is = [&](const char* k) { return strlen(k) == key_length && memcmp(entry, k, key_length) == 0; };
    bool ok = true, too_large = false;
    if (key_length > 4 && memcmp(entry, "node", 4) == 0) {
      int id = 0;
      for (size_t i = 4; i < key_length; ++i) {
        if (entry[i] < '0' || entry[i] > '9' || id > 63) {
          ok = false;
          break;
        }
        id = id * 10 + (entry[i] - '0');
      }
      if (!ok || id > 63) {
        err.add("bad node key '").add(entry, key_length).add("' (node0 .. node63)");
        return false;
      }
      t->all_nodes |= mask_of(id);
      CpuSet& cpus = t->node_cpus[id];
      if (!parse_list(value, value + value_length, static_cast<int>(kMaxCpus), [&](int c) { cpus.set(c); })) {
        err.add("bad CPU list in '").add(entry, n).add("'");
        return false;
      }
    } else if (key_is("affinity")) {
      have_affinity = true;
      CpuSet& cpus = t->affinity;
      if (!parse_list(value, value + value_length, static_cast<int>(kMaxCpus), [&](int c) { cpus.set(c); })) {
        err.add("bad CPU list in '").add(entry, n).add("'");
        return false;
      }
    } else if (key_is("cpunodebind")) {
      have_cpunodebind = true;
      cpunodebind = parse_node_list(value, value_length, &ok, &too_large);
      if (!ok || too_large) {
        err.add("bad node list in '").add(entry, n).add("'");
        return false;
      }
    } else if (key_is("memory")) {
      have_memory = true;
      t->memory_nodes = parse_node_list(value, value_length, &ok, &too_large);
      if (!ok || too_large) {
        err.add("bad node list in '").add(entry, n).add("'");
        return false;
      }
    } else if (key_is("policy")) {
      have_policy = true;
      auto policy_is = [&](const char* s) {
        size_t l = strlen(s);
        return value_length >= l && memcmp(value, s, l) == 0 && (value_length == l || value[l] == ':');
      };
      const char* colon = static_cast<const char*>(memchr(value, ':', value_length));
      const char* list = colon ? colon + 1 : value + value_length;
      const size_t list_length = static_cast<size_t>(value + value_length - list);
      if (policy_is("default") && !colon) {
        t->policy_mode = MPOL_DEFAULT;
      } else if (policy_is("local") && !colon) {
        t->policy_mode = MPOL_LOCAL;
      } else if (policy_is("unavailable") && !colon) {
        t->policy_available = false;
        t->policy_error = 1;  // EPERM, as under a default container seccomp profile
      } else if (colon && (policy_is("bind") || policy_is("interleave") || policy_is("preferred"))) {
        t->policy_mode = policy_is("bind") ? MPOL_BIND : policy_is("interleave") ? MPOL_INTERLEAVE : MPOL_PREFERRED;
        t->policy_nodes = parse_node_list(list, list_length, &ok, &too_large);
        if (!ok || too_large || t->policy_nodes == 0) {
          err.add("bad node list in '").add(entry, n).add("'");
          return false;
        }
      } else {
        err.add("bad policy '").add(value, value_length)
            .add("' (default, local, unavailable, bind:<nodes>, interleave:<nodes>, preferred:<node>)");
        return false;
      }
    } else if (key_is("distance")) {
      distance_text = value;
      distance_length = value_length;
    } else {
      err.add("unknown key '").add(entry, key_length).add("'");
      return false;
    }
  }
  if (t->all_nodes == 0) {
    err.add("no node<N>=<cpus> entry");
    return false;
  }
  if (!have_memory) t->memory_nodes = t->all_nodes;
  if (have_cpunodebind) {
    if ((cpunodebind & ~t->all_nodes) != 0) {
      err.add("cpunodebind names a node that is not defined");
      return false;
    }
    t->affinity = CpuSet{};
    for (int n = 0; n < 64; ++n)
      if (mask_has(cpunodebind, n)) t->affinity.unite(t->node_cpus[n]);
  } else if (!have_affinity) {
    prim::affinity(&t->affinity);
  }
  if (!have_policy) {
    int mode = 0;
    NodeMask nodes = 0;
    int error = prim::process_mempolicy(&mode, &nodes);
    t->policy_available = error == 0;
    t->policy_error = error;
    t->policy_mode = mode;
    t->policy_nodes = nodes;
  }
  if (distance_text) {
    // "10,20/20,10": one row per defined node, ascending ids.
    int ids[kMaxNodes];
    int count = 0;
    for (int n = 0; n < 64; ++n)
      if (mask_has(t->all_nodes, n)) ids[count++] = n;
    const char* at = distance_text;
    const char* end = distance_text + distance_length;
    for (int row = 0; row < count; ++row) {
      for (int col = 0; col < count; ++col) {
        int v = 0;
        bool digits = false;
        while (at < end && *at >= '0' && *at <= '9') v = v * 10 + (*at++ - '0'), digits = true;
        if (!digits || v > 255) {
          err.add("bad distance matrix (one row per node, rows separated by '/', values by ',')");
          return false;
        }
        t->distance[ids[row]][ids[col]] = static_cast<uint8_t>(v);
        char expected = col + 1 < count ? ',' : (row + 1 < count ? '/' : '\0');
        if (expected == '\0' ? at != end : (at >= end || *at != expected)) {
          err.add("bad distance matrix (one row per node, rows separated by '/', values by ',')");
          return false;
        }
        if (expected != '\0') ++at;
      }
    }
  }
  // Bindings are real for node ids that exist here; the others are only recorded.
  char buf[1024];
  long n = prim::read_file("/sys/devices/system/node/has_memory", buf, sizeof(buf));
  bool ok = true, too_large = false;
  NodeMask machine = n > 0 ? parse_node_list(buf, static_cast<size_t>(n), &ok, &too_large) : 0;
  if (!ok) machine = 0;
  t->real_nodes = t->all_nodes & machine;
  finish(t);
  return true;
}

}  // namespace

void load_topology(Topology* t, const char* injected, void (*report)(const char*)) {
  if (injected && *injected) {
    char why[256];
    if (parse_injected(injected, t, why, sizeof(why))) return;
    char line[512];
    TextBuffer msg(line, sizeof(line));
    msg.add("cmh-alloc: ignoring malformed CMH_ALLOC_TOPOLOGY: ").add(why).add('\n');
    report(line);
    *t = Topology{};
  }
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

// SPDX-License-Identifier: MIT
// CMH_ALLOC_TOPOLOGY: a described machine instead of sysfs, for tests only (allocator/
// README.md, "Injected topology"). Linked into the test and debug builds; the product
// allocator's load_topology() finds testing::inject_topology null and reads the machine.
// Entries are separated by ';' or blanks; each key has its own parser below. Runs inside
// the first malloc: stack buffers and raw syscalls only.
#include <linux/mempolicy.h>

#include <cstring>

#include "prim.hpp"
#include "testing_hooks.hpp"
#include "text.hpp"
#include "topology.hpp"

namespace cmh::allocator::testing {
namespace {

/// One `key=value` entry of the text.
struct Entry {
  const char* text;
  size_t length;
  size_t key_length;
  const char* value;
  size_t value_length;

  bool key_is(const char* k) const { return strlen(k) == key_length && memcmp(text, k, key_length) == 0; }
};

/// What the entries said so far; the defaults for absent keys are applied at the end.
struct Injection {
  Topology* t;
  TextBuffer* err;
  bool have_affinity = false, have_policy = false, have_memory = false, have_cpunodebind = false;
  NodeMask cpunodebind = 0;
  const char* distance_text = nullptr;
  size_t distance_length = 0;
};

bool fail_entry(Injection& in, const char* what, const Entry& e) {
  in.err->add(what).add(" in '").add(e.text, e.length).add("'");
  return false;
}

bool parse_cpus(CpuSet& cpus, const Entry& e, Injection& in) {
  if (parse_list(e.value, e.value + e.value_length, static_cast<int>(kMaxCpus), [&](int c) { cpus.set(c); }))
    return true;
  return fail_entry(in, "bad CPU list", e);
}

bool parse_nodes(NodeMask* nodes, const Entry& e, Injection& in) {
  bool ok = true, too_large = false;
  *nodes = parse_node_list(e.value, e.value_length, &ok, &too_large);
  return ok && !too_large ? true : fail_entry(in, "bad node list", e);
}

// node<N>=<cpus>
bool parse_node(const Entry& e, Injection& in) {
  int id = 0;
  bool ok = true;
  for (size_t i = 4; i < e.key_length; ++i) {
    if (e.text[i] < '0' || e.text[i] > '9' || id > 63) {
      ok = false;
      break;
    }
    id = id * 10 + (e.text[i] - '0');
  }
  if (!ok || id > 63) {
    in.err->add("bad node key '").add(e.text, e.key_length).add("' (node0 .. node63)");
    return false;
  }
  in.t->all_nodes |= mask_of(id);
  return parse_cpus(in.t->node_cpus[id], e, in);
}

bool parse_affinity(const Entry& e, Injection& in) {
  in.have_affinity = true;
  return parse_cpus(in.t->affinity, e, in);
}

bool parse_cpunodebind(const Entry& e, Injection& in) {
  in.have_cpunodebind = true;
  return parse_nodes(&in.cpunodebind, e, in);
}

bool parse_memory(const Entry& e, Injection& in) {
  in.have_memory = true;
  return parse_nodes(&in.t->memory_nodes, e, in);
}

// policy=default|local|unavailable|bind:<nodes>|interleave:<nodes>|preferred:<node>
bool parse_policy(const Entry& e, Injection& in) {
  in.have_policy = true;
  Topology* t = in.t;
  auto policy_is = [&](const char* s) {
    size_t l = strlen(s);
    return e.value_length >= l && memcmp(e.value, s, l) == 0 && (e.value_length == l || e.value[l] == ':');
  };
  const char* colon = static_cast<const char*>(memchr(e.value, ':', e.value_length));
  if (!colon && policy_is("default")) {
    t->policy_mode = MPOL_DEFAULT;
  } else if (!colon && policy_is("local")) {
    t->policy_mode = MPOL_LOCAL;
  } else if (!colon && policy_is("unavailable")) {
    t->policy_available = false;
    t->policy_error = 1;  // EPERM, as under a default container seccomp profile
  } else if (colon && (policy_is("bind") || policy_is("interleave") || policy_is("preferred"))) {
    t->policy_mode = policy_is("bind") ? MPOL_BIND : policy_is("interleave") ? MPOL_INTERLEAVE : MPOL_PREFERRED;
    bool ok = true, too_large = false;
    const size_t list_length = static_cast<size_t>(e.value + e.value_length - (colon + 1));
    t->policy_nodes = parse_node_list(colon + 1, list_length, &ok, &too_large);
    if (!ok || too_large || t->policy_nodes == 0) return fail_entry(in, "bad node list", e);
  } else {
    in.err->add("bad policy '").add(e.value, e.value_length)
        .add("' (default, local, unavailable, bind:<nodes>, interleave:<nodes>, preferred:<node>)");
    return false;
  }
  return true;
}

// distance=<rows>: checked once the nodes are known (apply_distances).
bool parse_distance(const Entry& e, Injection& in) {
  in.distance_text = e.value;
  in.distance_length = e.value_length;
  return true;
}

bool parse_entry(const Entry& e, Injection& in) {
  static constexpr struct {
    const char* key;
    bool (*parse)(const Entry&, Injection&);
  } kKeys[] = {{"affinity", parse_affinity}, {"cpunodebind", parse_cpunodebind}, {"memory", parse_memory},
               {"policy", parse_policy},     {"distance", parse_distance}};
  if (e.key_length > 4 && memcmp(e.text, "node", 4) == 0) return parse_node(e, in);
  for (const auto& k : kKeys)
    if (e.key_is(k.key)) return k.parse(e, in);
  in.err->add("unknown key '").add(e.text, e.key_length).add("'");
  return false;
}

// "10,20/20,10": one row per defined node, ascending ids.
bool apply_distances(Injection& in) {
  Topology* t = in.t;
  int ids[kMaxNodes];
  int count = 0;
  for (int n = 0; n < 64; ++n)
    if (mask_has(t->all_nodes, n)) ids[count++] = n;
  const char* at = in.distance_text;
  const char* end = in.distance_text + in.distance_length;
  for (int row = 0; row < count; ++row) {
    for (int col = 0; col < count; ++col) {
      int v = 0;
      bool digits = false;
      while (at < end && *at >= '0' && *at <= '9') v = v * 10 + (*at++ - '0'), digits = true;
      const char expected = col + 1 < count ? ',' : (row + 1 < count ? '/' : '\0');
      const bool bad_separator = expected == '\0' ? at != end : (at >= end || *at != expected);
      if (!digits || v > 255 || bad_separator) {
        in.err->add("bad distance matrix (one row per node, rows separated by '/', values by ',')");
        return false;
      }
      t->distance[ids[row]][ids[col]] = static_cast<uint8_t>(v);
      if (expected != '\0') ++at;
    }
  }
  return true;
}

/// The machine's values for what the text left out.
bool apply_defaults(Injection& in) {
  Topology* t = in.t;
  if (t->all_nodes == 0) {
    in.err->add("no node<N>=<cpus> entry");
    return false;
  }
  if (!in.have_memory) t->memory_nodes = t->all_nodes;
  if (in.have_cpunodebind) {
    if ((in.cpunodebind & ~t->all_nodes) != 0) {
      in.err->add("cpunodebind names a node that is not defined");
      return false;
    }
    t->affinity = CpuSet{};
    for (int n = 0; n < 64; ++n)
      if (mask_has(in.cpunodebind, n)) t->affinity.unite(t->node_cpus[n]);
  } else if (!in.have_affinity) {
    prim::affinity(&t->affinity);
  }
  if (!in.have_policy) {
    int mode = 0;
    NodeMask nodes = 0;
    int error = prim::process_mempolicy(&mode, &nodes);
    t->policy_available = error == 0;
    t->policy_error = error;
    t->policy_mode = mode;
    t->policy_nodes = nodes;
  }
  return true;
}

bool parse_injected(const char* text, Topology* t, char* why, size_t why_capacity) {
  TextBuffer err(why, why_capacity);
  default_distances(t);
  t->injected = true;
  Injection in{t, &err};
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
    if (!parse_entry(Entry{entry, n, key_length, eq + 1, n - key_length - 1}, in)) return false;
  }
  if (!apply_defaults(in)) return false;
  if (in.distance_text && !apply_distances(in)) return false;
  // Bindings are real for node ids that exist here; the others are only recorded.
  t->real_nodes = t->all_nodes & machine_memory_nodes();
  finish_topology(t);
  return true;
}

}  // namespace

bool inject_topology(Topology* t, void (*report)(const char*)) {
  const char* text = prim::get_env("CMH_ALLOC_TOPOLOGY");
  if (!text || !*text) return false;
  char why[256];
  if (parse_injected(text, t, why, sizeof(why))) return true;
  char line[512];
  TextBuffer msg(line, sizeof(line));
  msg.add("cmh-alloc: ignoring malformed CMH_ALLOC_TOPOLOGY: ").add(why).add('\n');
  report(line);
  *t = Topology{};
  return false;
}

}  // namespace cmh::allocator::testing

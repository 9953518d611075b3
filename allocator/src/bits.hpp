// SPDX-License-Identifier: MIT
// Fixed-size bit sets without allocation: CpuSet (1024 CPUs, the size of cpu_set_t),
// NodeMask (64 NUMA nodes), and the word helpers the region bitmaps use, plus the
// parser and printer of Linux's list syntax ("0-3,8,10-11") shared by sysfs and
// CMH_ALLOC_TOPOLOGY.
#pragma once

#include "config.hpp"

namespace cmh::allocator {

using NodeMask = uint64_t;

inline int popcount(uint64_t w) { return __builtin_popcountll(w); }
inline int lowest_bit(uint64_t w) { return __builtin_ctzll(w); }
inline bool mask_has(NodeMask m, int node) { return node >= 0 && node < 64 && ((m >> node) & 1); }
inline NodeMask mask_of(int node) { return NodeMask{1} << node; }

struct CpuSet {
  static constexpr int kWords = static_cast<int>(kMaxCpus / 64);
  uint64_t words[kWords] = {};

  void set(int cpu) {
    if (cpu >= 0 && cpu < static_cast<int>(kMaxCpus)) words[cpu / 64] |= uint64_t{1} << (cpu % 64);
  }
  bool has(int cpu) const {
    return cpu >= 0 && cpu < static_cast<int>(kMaxCpus) && ((words[cpu / 64] >> (cpu % 64)) & 1);
  }
  bool empty() const {
    for (uint64_t w : words)
      if (w) return false;
    return true;
  }
  bool intersects(const CpuSet& other) const {
    for (int i = 0; i < kWords; ++i)
      if (words[i] & other.words[i]) return true;
    return false;
  }
  void unite(const CpuSet& other) {
    for (int i = 0; i < kWords; ++i) words[i] |= other.words[i];
  }
  int count() const {
    int n = 0;
    for (uint64_t w : words) n += popcount(w);
    return n;
  }
};

// Parses "0-3,8,10-11" (also "" = empty, trailing newline allowed) into `out` by calling
// add(value) for every member. Values must be < limit. Returns false on malformed text.
template <typename Add>
bool parse_list(const char* text, const char* end, int limit, Add add) {
  const char* p = text;
  while (p < end && (*p == '\n' || *p == ' ')) ++p;
  if (p == end) return true;
  for (;;) {
    auto read_int = [&](int* value) {
      if (p >= end || *p < '0' || *p > '9') return false;
      long v = 0;
      while (p < end && *p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        if (v >= limit) return false;
        ++p;
      }
      *value = static_cast<int>(v);
      return true;
    };
    int first = 0, last = 0;
    if (!read_int(&first)) return false;
    last = first;
    if (p < end && *p == '-') {
      ++p;
      if (!read_int(&last) || last < first) return false;
    }
    for (int v = first; v <= last; ++v) add(v);
    if (p < end && *p == ',') {
      ++p;
      continue;
    }
    while (p < end && (*p == '\n' || *p == ' ')) ++p;
    return p == end;
  }
}

}  // namespace cmh::allocator

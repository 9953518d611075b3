// SPDX-License-Identifier: MIT
// One metric, several spellings: how labels from cmh, JMH and Google Benchmark files
// are folded into one matching key, and what kind of metric each one is.
#include <cmh/results/model.hpp>

namespace cmh::results {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string metric_key(const std::string& label) {
  std::string key = label;
  // JMH 1.36 and earlier put U+00B7 MIDDLE DOT (UTF-8 C2 B7) before profiler metrics
  // ("·gc.alloc.rate") and between a method and its sample-mode percentiles
  // ("measureSamples·p0.99"); 1.37 writes "gc.alloc.rate" and "p0.99".
  if (const std::size_t dot = key.rfind("\xC2\xB7"); dot != std::string::npos) key.erase(0, dot + 2);
  // JMH's -prof gc and cmh's -prof gc say gc.alloc.*; cmh's -prof alloc says alloc.*.
  if (starts_with(key, "gc.alloc.")) key.erase(0, 3);
  // Google Benchmark's MemoryManager count, already per iteration = per op.
  if (key == "allocs_per_iter") key = "alloc.count.norm";
  return key;
}

bool is_exact_metric(const std::string& key, const std::string& unit) {
  return key == "alloc.rate.norm" || key == "alloc.count.norm" || unit == "B/op" || unit == "allocs/op";
}

bool is_icount_metric(const std::string& key) { return starts_with(key, "icount.") && ends_with(key, ".norm"); }

bool is_higher_better(const std::string& key, const std::string& unit, bool primary) {
  // Throughput scores are ops per time unit; everything per op (time, bytes, events) is a cost.
  if (primary) return starts_with(unit, "ops/");
  return key == "IPC" || ends_with(key, "_per_second") || key == "items_per_second";
}

}  // namespace cmh::results

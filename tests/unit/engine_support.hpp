// SPDX-License-Identifier: MIT
// Shared by the engine_*/api_* unit tests: a recording TrialObserver, short
// plans (20 ms iterations), and lookups of the benchmarks the tests register.
#pragma once

#include <cmh/cmh.hpp>
#include <cmh/detail/benchmark_code.hpp>
#include <cmh/extension.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/trial.hpp"

namespace cmh::testing {

struct RecordingObserver : engine::TrialObserver {
  std::vector<std::string> events;  // "start W1", "done M2", "fail M1"
  std::vector<IterationResult> results;
  std::optional<Failure> failure;

  static std::string tag(IterationKind k, int i) { return (k == IterationKind::warmup ? "W" : "M") + std::to_string(i); }
  void iteration_started(const IterationParams& ip, int index) override {
    events.push_back("start " + tag(ip.kind, index));
  }
  void iteration_finished(const IterationResult& r) override {
    events.push_back("done " + tag(r.kind, r.index));
    results.push_back(r);
  }
  void iteration_failed(const IterationParams& ip, int index, const Failure& f) override {
    events.push_back("fail " + tag(ip.kind, index));
    failure = f;
  }
  std::vector<IterationResult> measured() const {
    std::vector<IterationResult> out;
    for (const auto& r : results)
      if (r.kind == IterationKind::measurement) out.push_back(r);
    return out;
  }
};

inline const BenchmarkDefinition& definition(const std::string& full_name) {
  const BenchmarkDefinition* d = find_benchmark(full_name);
  REQUIRE_MESSAGE(d != nullptr, "no benchmark " << full_name);
  return *d;
}

/// 1 warmup and `iterations` measurement iterations of `ms` each, one thread, ns.
inline BenchmarkParams quick_plan(const BenchmarkDefinition& def, BenchmarkMode mode = BenchmarkMode::average_time,
                                  int threads = 1, int iterations = 2, int ms = 20) {
  BenchmarkParams p;
  p.benchmark = def.full_name();
  p.group = def.group;
  p.name = def.name;
  p.mode = mode;
  p.time_unit = TimeUnit::ns;
  p.warmup = {IterationKind::warmup, 1, std::chrono::milliseconds(ms), 1};
  p.measurement = {IterationKind::measurement, iterations, std::chrono::milliseconds(ms), 1};
  p.threads = threads;
  p.thread_groups = def.group_threads;
  p.group_members = def.group_members;
  p.forks = 0;
  for (const auto& decl : def.params)
    if (!decl.defaults.empty()) p.params.emplace_back(decl.name, decl.defaults.front());
  return p;
}

/// Runs a trial without profilers; REQUIREs that it succeeded unless told otherwise.
inline RecordingObserver run(const BenchmarkDefinition& def, const BenchmarkParams& plan, bool expect_ok = true,
                             std::span<InternalProfiler* const> profilers = {}) {
  RecordingObserver obs;
  auto failure = engine::run_trial(def, plan, profilers, obs);
  if (expect_ok) {
    REQUIRE_MESSAGE(!failure, "trial failed: " << (failure ? failure->message : ""));
  } else {
    REQUIRE(failure.has_value());
  }
  return obs;
}

}  // namespace cmh::testing

// SPDX-License-Identifier: MIT
// Families: the chained options, and their expansion into instances named as
// Google Benchmark names them (its documented naming: the family, each argument
// as "value" or "name:value", then min_time, min_warmup_time, iterations,
// repeats, process_time, manual_time or real_time, threads).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>

#include "family.hpp"

namespace benchmark::internal {

std::vector<Benchmark*>& families() {
  static std::vector<Benchmark*> all;  // function-local: usable from any static initialiser
  return all;
}

Benchmark* RegisterBenchmarkInternal(Benchmark* benchmark) {
  families().push_back(benchmark);
  return benchmark;
}

Benchmark::Benchmark(const char* name) : family_(std::make_unique<Family>()) { family_->name = name; }
Benchmark::Benchmark(const std::string& name) : Benchmark(name.c_str()) {}
Benchmark::~Benchmark() = default;
void Benchmark::SetName(const char* name) { family_->name = name; }

Benchmark* Benchmark::Name(const std::string& name) {
  family_->name = name;
  return this;
}
Benchmark* Benchmark::Arg(std::int64_t x) {
  family_->args.push_back({x});
  return this;
}
Benchmark* Benchmark::Unit(TimeUnit unit) {
  family_->unit = unit;
  return this;
}
Benchmark* Benchmark::Range(std::int64_t start, std::int64_t limit) {
  for (std::int64_t v : range_values(start, limit, family_->range_multiplier)) family_->args.push_back({v});
  return this;
}
Benchmark* Benchmark::DenseRange(std::int64_t start, std::int64_t limit, int step) {
  for (std::int64_t v = start; v <= limit; v += step) family_->args.push_back({v});
  return this;
}
Benchmark* Benchmark::Args(const std::vector<std::int64_t>& args) {
  family_->args.push_back(args);
  return this;
}
Benchmark* Benchmark::Ranges(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges) {
  std::vector<std::vector<std::int64_t>> lists;
  for (const auto& [lo, hi] : ranges) lists.push_back(range_values(lo, hi, family_->range_multiplier));
  return ArgsProduct(lists);
}
Benchmark* Benchmark::ArgsProduct(const std::vector<std::vector<std::int64_t>>& arglists) {
  // The first list varies fastest, as in Google Benchmark's listing.
  std::size_t total = 1;
  for (const auto& l : arglists) total *= l.size();
  std::vector<std::size_t> index(arglists.size(), 0);
  for (std::size_t n = 0; n < total; ++n) {
    std::vector<std::int64_t> tuple;
    for (std::size_t k = 0; k < arglists.size(); ++k) tuple.push_back(arglists[k][index[k]]);
    family_->args.push_back(std::move(tuple));
    for (std::size_t k = 0; k < arglists.size(); ++k) {
      if (++index[k] < arglists[k].size()) break;
      index[k] = 0;
    }
  }
  return this;
}
Benchmark* Benchmark::ArgName(const std::string& name) {
  family_->arg_names = {name};
  return this;
}
Benchmark* Benchmark::ArgNames(const std::vector<std::string>& names) {
  family_->arg_names = names;
  return this;
}
Benchmark* Benchmark::Setup(void (*setup)(const State&)) {
  family_->setup = setup;
  return this;
}
Benchmark* Benchmark::Teardown(void (*teardown)(const State&)) {
  family_->teardown = teardown;
  return this;
}
Benchmark* Benchmark::Apply(void (*func)(Benchmark*)) {
  func(this);
  return this;
}
Benchmark* Benchmark::RangeMultiplier(int multiplier) {
  family_->range_multiplier = multiplier;
  return this;
}
Benchmark* Benchmark::MinTime(double seconds) {
  family_->min_time = seconds;
  return this;
}
Benchmark* Benchmark::MinWarmUpTime(double seconds) {
  family_->min_warmup_time = seconds;
  return this;
}
Benchmark* Benchmark::Iterations(IterationCount n) {
  family_->iterations = n;
  return this;
}
Benchmark* Benchmark::Repetitions(int n) {
  family_->repetitions = n;
  return this;
}
Benchmark* Benchmark::ReportAggregatesOnly(bool value) {
  family_->aggregates_mode_set = true;
  family_->file_aggregates_only = value;
  family_->display_aggregates_only = value;
  return this;
}
Benchmark* Benchmark::DisplayAggregatesOnly(bool value) {
  family_->aggregates_mode_set = true;  // the file keeps what ReportAggregatesOnly said, if anything
  family_->display_aggregates_only = value;
  return this;
}
Benchmark* Benchmark::MeasureProcessCPUTime() {
  family_->measure_process_cpu_time = true;
  return this;
}
Benchmark* Benchmark::UseRealTime() {
  family_->use_real_time = true;
  return this;
}
Benchmark* Benchmark::UseManualTime() {
  family_->use_manual_time = true;
  return this;
}
Benchmark* Benchmark::Complexity(BigO complexity) {
  family_->complexity = complexity;
  return this;
}
Benchmark* Benchmark::Complexity(BigOFunc*) {
  family_->complexity = oLambda;
  return this;
}
Benchmark* Benchmark::ComputeStatistics(const std::string& name, StatisticsFunc*, StatisticUnit) {
  family_->statistics.push_back(name);
  return this;
}
Benchmark* Benchmark::Threads(int t) {
  family_->thread_counts.push_back(t);
  return this;
}
Benchmark* Benchmark::ThreadRange(int min_threads, int max_threads) {
  for (int t = min_threads; t < max_threads; t *= 2) family_->thread_counts.push_back(t);
  family_->thread_counts.push_back(max_threads);
  return this;
}
Benchmark* Benchmark::DenseThreadRange(int min_threads, int max_threads, int stride) {
  for (int t = min_threads; t < max_threads; t += stride) family_->thread_counts.push_back(t);
  family_->thread_counts.push_back(max_threads);
  return this;
}
Benchmark* Benchmark::ThreadPerCpu() {
  family_->thread_counts.push_back(static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN))));
  return this;
}

std::vector<std::int64_t> range_values(std::int64_t lo, std::int64_t hi, int mult) {
  std::vector<std::int64_t> out{lo};
  if (lo >= hi || mult < 2) {
    if (hi != lo) out.push_back(hi);
    return out;
  }
  // Powers of mult (and their negatives) strictly inside (lo, hi), in increasing order.
  std::vector<std::int64_t> inner;
  const std::int64_t m = mult;
  for (std::int64_t p = 1;; p *= m) {
    if (-p > lo && -p < hi) inner.push_back(-p);
    if (p > lo && p < hi) inner.push_back(p);
    if (p > std::numeric_limits<std::int64_t>::max() / m) break;
  }
  if (lo < 0 && hi > 0) inner.push_back(0);
  std::sort(inner.begin(), inner.end());
  inner.erase(std::unique(inner.begin(), inner.end()), inner.end());
  out.insert(out.end(), inner.begin(), inner.end());
  out.push_back(hi);
  return out;
}

namespace {

std::string seconds_text(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

void expand(Benchmark* b, std::vector<Instance>& out) {
  const Family& f = b->family();
  const std::vector<std::vector<std::int64_t>> tuples =
      f.args.empty() ? std::vector<std::vector<std::int64_t>>{{}} : f.args;
  const std::vector<int> threads = f.thread_counts.empty() ? std::vector<int>{1} : f.thread_counts;
  for (const auto& tuple : tuples) {
    for (int t : threads) {
      Instance in;
      in.benchmark = b;
      in.family = &f;
      in.args = tuple;
      in.threads = t;
      in.name = f.name;
      for (std::size_t i = 0; i < tuple.size(); ++i) {
        const bool named = i < f.arg_names.size() && !f.arg_names[i].empty();
        in.name += "/" + (named ? f.arg_names[i] + ":" : std::string()) + std::to_string(tuple[i]);
        in.param_names.push_back(named ? f.arg_names[i] : "arg" + std::to_string(i));
      }
      if (f.min_time) in.name += "/min_time:" + seconds_text(*f.min_time);
      if (f.min_warmup_time) in.name += "/min_warmup_time:" + seconds_text(*f.min_warmup_time);
      if (f.iterations > 0) in.name += "/iterations:" + std::to_string(f.iterations);
      if (f.repetitions > 0) in.name += "/repeats:" + std::to_string(f.repetitions);
      if (f.measure_process_cpu_time) in.name += "/process_time";
      if (f.use_manual_time) {
        in.name += "/manual_time";
      } else if (f.use_real_time) {
        in.name += "/real_time";
      }
      if (!f.thread_counts.empty()) in.name += "/threads:" + std::to_string(t);
      out.push_back(std::move(in));
    }
  }
}

}  // namespace

const std::vector<Instance>& instances() {
  static const std::vector<Instance> all = [] {
    std::vector<Instance> out;
    for (Benchmark* b : families()) expand(b, out);
    return out;
  }();
  return all;
}

}  // namespace benchmark::internal

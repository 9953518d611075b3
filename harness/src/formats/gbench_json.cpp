// SPDX-License-Identifier: MIT
// -rf gbench: Google Benchmark's JSON (peers.md section 2.2), shaped so that
// tools/compare.py and the services that read Google Benchmark files take it
// unchanged. Each measurement fork is one repetition ("iteration" row), so
// compare.py's U test sees the fork-to-fork spread; mean/median/stddev/cv rows
// follow, computed over the forks that succeeded, as Google Benchmark does.
// real_time and cpu_time follow Google Benchmark's definitions: wall time and CPU
// time of all threads per op of all threads (stats/time_per_op.hpp).
#include "formats/labels.hpp"
#include "formats/renderers.hpp"
#include "model/allocator_state.hpp"
#include "stats/time_per_op.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace cmh::formats {
namespace {

using Json = nlohmann::ordered_json;

/// compare.py knows ns, us, ms and s only; longer units are reported in seconds.
TimeUnit gbench_time_unit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::ns:
    case TimeUnit::us:
    case TimeUnit::ms:
    case TimeUnit::s: return unit;
    default: return TimeUnit::s;
  }
}

/// One fork as one Google Benchmark repetition.
struct Repetition {
  int index = 0;               ///< 0-based repetition_index
  std::string error;           ///< non-empty: the fork failed
  double time_per_op = 0;      ///< in the gbench time unit (real_time)
  double cpu_per_op = 0;       ///< cpu.time.norm in the gbench time unit (cpu_time); NaN if not measured
  std::uint64_t iterations = 0;
  std::map<std::string, double> counters;
  std::string label;  ///< SetLabel's text, the fork's last (Google Benchmark's "label")
};

double mean_of(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2.0;
}

double stddev_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double sq = 0;
  for (const double x : v) sq += (x - m) * (x - m);
  return std::sqrt(sq / static_cast<double>(v.size() - 1));
}

/// Combines one metric's per-iteration values into one value for the fork, by its policy.
/// Iterations that lack the metric count as zero for average and sum (JMH pads the same way).
double by_policy(AggregationPolicy policy, const std::vector<double>& present, std::size_t iterations) {
  if (present.empty()) return 0;
  switch (policy) {
    case AggregationPolicy::sum: {
      double s = 0;
      for (const double x : present) s += x;
      return s;
    }
    case AggregationPolicy::max: return *std::max_element(present.begin(), present.end());
    case AggregationPolicy::min: return *std::min_element(present.begin(), present.end());
    case AggregationPolicy::average:
    default: {
      double s = 0;
      for (const double x : present) s += x;
      return s / static_cast<double>(std::max(iterations, present.size()));
    }
  }
}

/// The fork's primary score in the plan's unit: mean of its iteration scores, or in
/// sample mode the mean of all its samples (histograms hold nanoseconds per op).
double fork_primary_score(const ForkResult& fork, const BenchmarkParams& p) {
  if (p.mode == BenchmarkMode::sample_time) {
    double weighted = 0;
    std::uint64_t count = 0;
    for (const auto& it : fork.measurement)
      if (it.samples)
        it.samples->for_each([&](double value, std::uint64_t n) {
          weighted += value * static_cast<double>(n);
          count += n;
        });
    if (count > 0) return weighted / static_cast<double>(count) / nanos_per(p.time_unit);
  }
  std::vector<double> scores;
  for (const auto& it : fork.measurement) scores.push_back(it.primary.value);
  return mean_of(scores);
}

Repetition repetition_of(const ForkResult& fork, int index, const BenchmarkParams& p) {
  Repetition r;
  r.index = index;
  if (fork.failure) {
    r.error = fork.failure->message.empty() ? std::string(failure_kind_name(fork.failure->kind))
                                            : fork.failure->message;
    return r;
  }
  const double score = fork_primary_score(fork, p);
  const double to_gbench_unit = nanos_per(p.time_unit) / nanos_per(gbench_time_unit(p.time_unit));
  if (p.mode == BenchmarkMode::throughput) {
    // Time per op is the inverse of throughput (ops per unit); 0 ops gives +inf, written null.
    r.time_per_op = (score > 0 ? 1.0 / score : HUGE_VAL) * to_gbench_unit;
    r.counters["items_per_second"] = score * 1e9 / nanos_per(p.time_unit);
  } else if (p.mode == BenchmarkMode::average_time && p.threads > 1) {
    // Google Benchmark's real_time: the whole process's wall time over the ops of all
    // threads, where JMH's average time (the primary) is per thread.
    std::vector<double> totals;
    for (const auto& it : fork.measurement) totals.push_back(stats::total_time_per_op(p.time_unit, it.threads));
    r.time_per_op = mean_of(totals) * to_gbench_unit;
  } else {
    r.time_per_op = score * to_gbench_unit;
  }
  // cpu_time: CPU time of all threads over the ops of all threads (cpu.time.norm, in ns),
  // averaged over the fork's iterations like the score. Never a copy of real_time.
  std::vector<double> cpu;
  for (const auto& it : fork.measurement) cpu.push_back(stats::cpu_time_per_op(it.threads));
  r.cpu_per_op = mean_of(cpu) / nanos_per(gbench_time_unit(p.time_unit));
  for (const auto& it : fork.measurement) {
    r.iterations += it.measured_ops;
    if (!it.label.empty()) r.label = it.label;
  }

  struct Series {
    AggregationPolicy policy;
    std::vector<double> values;
  };
  std::map<std::string, Series> series;
  for (const auto& it : fork.measurement)
    for (const auto& s : it.secondaries) {
      auto& entry = series.try_emplace(s.label, Series{s.policy, {}}).first->second;
      entry.values.push_back(s.value);
    }
  for (const auto& [label, s] : series) r.counters[label] = by_policy(s.policy, s.values, fork.measurement.size());
  for (const auto& s : fork.trial_secondaries) r.counters[s.label] = s.value;
  return r;
}

/// The benchmark's name: the full name, then its parameters and mode in Google
/// Benchmark's `/key:value` style, so every benchmark x mode x params point is unique.
std::string run_name(const BenchmarkParams& p) {
  std::string name = p.benchmark;
  for (const auto& [key, value] : p.params) name += "/" + key + ":" + value;
  name += "/mode:" + std::string(mode_short_label(p.mode));
  if (p.threads != 1) name += "/threads:" + std::to_string(p.threads);
  return name;
}

/// A benchmark named by its own framework (registered at run time with no member name, as
/// cmh::gbench registers Google Benchmark's instances) keeps that name, "BM_x/8/threads:2",
/// so that compare.py matches it with the same suite's Google Benchmark file. The
/// /param:value and /mode: parts come back only when two runs in the file would share it
/// (-p with several values, -bm all); threads only when the name does not say them already.
std::string foreign_run_name(const BenchmarkParams& p, bool shared) {
  if (shared) return run_name(p);
  std::string name = p.benchmark;
  const std::string threads = "/threads:" + std::to_string(p.threads);
  if (p.threads != 1 && name.find(threads) == std::string::npos) name += threads;
  return name;
}

bool named_by_its_framework(const BenchmarkParams& p) { return p.name.empty() && p.group_members.empty(); }

/// Keys Google Benchmark reserves in a row; a counter with such a label gets a prefix.
std::string counter_key(const std::string& label) {
  static const char* const kReserved[] = {"name", "family_index", "per_family_instance_index", "run_name",
                                          "run_type", "repetitions", "repetition_index", "threads",
                                          "aggregate_name", "aggregate_unit", "error_occurred",
                                          "error_message", "iterations", "real_time", "cpu_time",
                                          "time_unit", "label"};
  for (const char* r : kReserved)
    if (label == r) return "cmh." + label;
  return label;
}

struct RowIdentity {
  std::string name;
  int family_index = 0;
  int instance_index = 0;
  int repetitions = 0;
  int threads = 1;
  std::string time_unit;
};

Json row_head(const RowIdentity& id, const std::string& name) {
  Json row = Json::object();
  row["name"] = name;
  row["family_index"] = id.family_index;
  row["per_family_instance_index"] = id.instance_index;
  row["run_name"] = id.name;
  return row;
}

Json iteration_row(const RowIdentity& id, const Repetition& r) {
  Json row = row_head(id, id.name);
  row["run_type"] = "iteration";
  row["repetitions"] = id.repetitions;
  row["repetition_index"] = r.index;
  row["threads"] = id.threads;
  if (!r.error.empty()) {
    row["error_occurred"] = true;
    row["error_message"] = r.error;
  }
  row["iterations"] = r.iterations;
  row["real_time"] = r.time_per_op;
  row["cpu_time"] = r.cpu_per_op;  // NaN (not measured) is written null
  row["time_unit"] = id.time_unit;
  if (!r.label.empty()) row["label"] = r.label;
  for (const auto& [label, value] : r.counters) row[counter_key(label)] = value;
  return row;
}

Json aggregate_row(const RowIdentity& id, const std::vector<const Repetition*>& ok, const std::string& which) {
  const auto statistic = [&](const std::vector<double>& v) {
    if (which == "mean") return mean_of(v);
    if (which == "median") return median_of(v);
    if (which == "stddev") return stddev_of(v);
    return stddev_of(v) / mean_of(v);  // cv; a zero mean gives NaN/inf, written null
  };
  Json row = row_head(id, id.name + "_" + which);
  row["run_type"] = "aggregate";
  row["repetitions"] = id.repetitions;
  row["threads"] = id.threads;
  row["aggregate_name"] = which;
  row["aggregate_unit"] = which == "cv" ? "percentage" : "time";
  row["iterations"] = ok.size();  // as Google Benchmark: the number of repetitions aggregated
  std::vector<double> times;
  std::vector<double> cpu_times;
  for (const auto* r : ok) {
    times.push_back(r->time_per_op);
    cpu_times.push_back(r->cpu_per_op);
  }
  row["real_time"] = statistic(times);
  row["cpu_time"] = statistic(cpu_times);
  row["time_unit"] = id.time_unit;
  // As Google Benchmark: the aggregates carry the label when every repetition has the same one.
  if (!ok.empty() && !ok.front()->label.empty() &&
      std::all_of(ok.begin(), ok.end(), [&](const Repetition* r) { return r->label == ok.front()->label; }))
    row["label"] = ok.front()->label;
  std::map<std::string, std::vector<double>> counters;
  for (const auto* r : ok)
    for (const auto& [label, value] : r->counters) counters[label].push_back(value);
  for (const auto& [label, values] : counters) row[counter_key(label)] = statistic(values);
  return row;
}

// The allocator state every fork of the file agrees on, or that they differ.
struct AllocatorSummary {
  AllocatorState common;
  bool differs = false;
};

AllocatorSummary allocator_summary(const RunResults& results) {
  std::vector<ForkResult> forks;
  for (const auto& run : results.benchmarks) forks.insert(forks.end(), run.forks.begin(), run.forks.end());
  const model::ForksAllocatorView view = model::forks_allocator_view(forks);
  return {view.common, view.differs};
}

Json context_json(const RunResults& results, const model::RunContext& ctx, const MachineInfo& m) {
  Json c = Json::object();
  c["date"] = m.date;
  c["host_name"] = m.host_name;
  c["executable"] = ctx.executable;
  c["num_cpus"] = ctx.cpu_count;
  c["mhz_per_cpu"] = std::llround(m.mhz_per_cpu);
  if (m.cpu_scaling_enabled) c["cpu_scaling_enabled"] = *m.cpu_scaling_enabled;
  Json caches = Json::array();
  for (const auto& cache : m.caches) {
    Json e = Json::object();
    e["type"] = cache.type;
    e["level"] = cache.level;
    e["size"] = cache.size;
    e["num_sharing"] = cache.num_sharing;
    caches.push_back(std::move(e));
  }
  c["caches"] = std::move(caches);
  Json load = Json::array();
  for (const double l : m.load_avg) load.push_back(l);
  c["load_avg"] = std::move(load);
  c["library_version"] = "cmh " + ctx.cmh_version;
  c["library_build_type"] = ctx.build_type;
  c["json_schema_version"] = 1;
  // Custom context entries (Google Benchmark's AddCustomContext) are strings.
  c["cmh_version"] = ctx.cmh_version;
  c["compiler"] = ctx.compiler;
  c["compiler_flags"] = ctx.compiler_flags;
  c["cpu_model"] = ctx.cpu_model;
  c["kernel"] = ctx.kernel;
  // What the forks' allocators decided (fork arguments such as --membind change it), as
  // the JSON's cmh block says, never the host's own view; "differs per fork" when they
  // do not agree (each benchmark's rows then carry fork_allocators), "unknown" when no
  // fork reported.
  const AllocatorSummary alloc = allocator_summary(results);
  if (alloc.differs) {
    c["numa_mode"] = "differs per fork";
    c["numa_reason"] = "the forks' allocators decided differently: see each benchmark's fork_allocators";
    c["numa_nodes"] = "";
    c["allocator_options"] = "differs per fork";
  } else {
    const AllocatorState& a = alloc.common;
    c["numa_mode"] = a.known ? a.numa_mode : std::string("unknown");
    c["numa_reason"] = a.known ? a.numa_reason : std::string("no fork reported");
    c["numa_nodes"] = a.numa_nodes;
    c["allocator_options"] = a.known ? a.options : std::string("unknown");
  }
  std::string warnings;
  for (const auto& w : ctx.warnings) warnings += (warnings.empty() ? "" : "; ") + w;
  c["warnings"] = warnings;
  c["run_complete"] = results.complete ? "true" : "false";
  // AddCustomContext / --benchmark_context: strings, as Google Benchmark writes them;
  // a key of cmh's own is not overwritten.
  for (const auto& [key, value] : ctx.custom)
    if (!c.contains(key)) c[key] = value;
  return c;
}

}  // namespace

std::string render_gbench_json(const RunResults& results, const model::RunContext& ctx, const MachineInfo& machine) {
  Json rows = Json::array();
  std::map<std::string, std::pair<int, int>> families;  // benchmark -> (family index, instances so far)
  std::map<std::string, int> runs_of;                    // benchmark -> its runs in this file
  for (const auto& run : results.benchmarks) ++runs_of[run.params.benchmark];
  const bool forks_differ = allocator_summary(results).differs;
  for (const auto& run : results.benchmarks) {
    const BenchmarkParams& p = run.params;
    auto [family, inserted] = families.try_emplace(p.benchmark, static_cast<int>(families.size()), 0);
    RowIdentity id;
    id.name = named_by_its_framework(p) ? foreign_run_name(p, runs_of[p.benchmark] > 1) : run_name(p);
    id.family_index = family->second.first;
    id.instance_index = family->second.second++;
    id.repetitions = std::max(1, p.forks);
    id.threads = p.threads;
    id.time_unit = std::string(unit_label(gbench_time_unit(p.time_unit)));

    std::vector<Repetition> reps;
    for (const auto& fork : run.forks) {
      if (fork.warmup_fork || (fork.measurement.empty() && !fork.failure)) continue;
      reps.push_back(repetition_of(fork, static_cast<int>(reps.size()), p));
    }
    if (reps.empty() && run.failure) {
      Repetition r;
      r.error = run.failure->message.empty() ? std::string(failure_kind_name(run.failure->kind))
                                             : run.failure->message;
      reps.push_back(r);
    }
    std::vector<const Repetition*> ok;
    const std::size_t first_row = rows.size();
    for (const auto& r : reps) {
      rows.push_back(iteration_row(id, r));
      if (r.error.empty()) ok.push_back(&r);
    }
    if (ok.size() >= 2)  // Google Benchmark aggregates only two or more successful repetitions
      for (const char* which : {"mean", "median", "stddev", "cv"}) rows.push_back(aggregate_row(id, ok, which));
    if (forks_differ) {
      const std::string per_fork = model::forks_numa_text(run.forks) + " | options: " + model::forks_options_text(run.forks);
      for (std::size_t i = first_row; i < rows.size(); ++i) rows[i]["fork_allocators"] = per_fork;
    }
  }
  Json doc = Json::object();
  doc["context"] = context_json(results, ctx, machine);
  doc["benchmarks"] = std::move(rows);
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace cmh::formats

// SPDX-License-Identifier: MIT
// -rf json: JMH's JSON document, field for field (jmh.md section 4.1), so JMH
// Visualizer, github-action-benchmark's `jmh` tool and JMH diff scripts read it.
// JVM fields carry their C++ counterparts; a "cmh" object at the end of every
// record carries what JMH has no field for (build, machine, the forks' NUMA mode and
// allocator options, warnings, the benchmark's failure and whether the run completed).
#include "stats/nan.hpp"
#include "formats/labels.hpp"
#include "formats/machine_json.hpp"
#include <cmh/common/numbers.hpp>
#include "formats/renderers.hpp"
#include "formats/robust_json.hpp"
#include "formats/tidy_json.hpp"
#include "model/allocator_state.hpp"
#include "stats/time_per_op.hpp"

#include <fmt/format.h>

#include <cmath>

#include <limits>

namespace cmh::formats {
namespace {

using Json = nlohmann::ordered_json;


// JMH's percentile keys are the percentiles spelled as Java doubles: "0.0", "99.9999", "100.0".
std::string percentile_key(double p) { return java_double(p); }

Json string_array(const std::vector<std::string>& items) {
  Json a = Json::array();
  for (const auto& s : items) a.push_back(s);
  return a;
}

Json pair_array(double lo, double hi) {
  Json a = Json::array();
  a.push_back(lo);
  a.push_back(hi);
  return a;
}

/// One metric in JMH's shape. `has_data` false: the benchmark produced nothing,
/// every number is NaN (written "NaN") and the raw data is empty.
Json metric_json(const stats::AggregatedMetric& m, const std::string& unit, bool has_data, bool histogram) {
  Json j = Json::object();
  j["score"] = has_data ? m.score : kNaN;
  j["scoreError"] = has_data ? m.error : kNaN;
  j["scoreConfidence"] = has_data ? pair_array(m.confidence.first, m.confidence.second) : pair_array(kNaN, kNaN);
  Json percentiles = Json::object();
  for (std::size_t i = 0; i < stats::kJsonPercentiles.size(); ++i)
    percentiles[percentile_key(stats::kJsonPercentiles[i])] = has_data ? m.percentiles[i] : kNaN;
  j["scorePercentiles"] = std::move(percentiles);
  j["scoreUnit"] = unit;
  if (histogram) {
    // [fork][iteration][(value, count)]
    Json forks = Json::array();
    for (const auto& fork : m.raw_histograms) {
      Json iterations = Json::array();
      for (const auto& iteration : fork) {
        Json pairs = Json::array();
        for (const auto& [value, count] : iteration) {
          Json pair = Json::array();
          pair.push_back(value);
          pair.push_back(count);
          pairs.push_back(std::move(pair));
        }
        iterations.push_back(std::move(pairs));
      }
      forks.push_back(std::move(iterations));
    }
    j["rawDataHistogram"] = std::move(forks);
  } else {
    Json forks = Json::array();
    for (const auto& fork : m.raw_by_fork) {
      Json scores = Json::array();
      for (const double v : fork) scores.push_back(v);
      forks.push_back(std::move(scores));
    }
    j["rawData"] = std::move(forks);
  }
  return j;
}

Json failure_json(const BenchmarkRunResult& run) {
  const Failure& f = *run.failure;
  Json j = Json::object();
  j["kind"] = std::string(failure_kind_name(f.kind));
  j["message"] = f.message;
  for (const auto& fork : run.forks)
    if (fork.failure) {
      j["fork"] = fork.index;
      break;
    }
  if (!f.exception_type.empty()) j["exceptionType"] = f.exception_type;
  if (f.exit_code != 0) j["exitCode"] = f.exit_code;
  if (f.signal != 0) j["signal"] = f.signal;
  j["stdoutTail"] = string_array(f.stdout_tail);
  j["stderrTail"] = string_array(f.stderr_tail);
  if (!f.stack.empty()) j["stack"] = string_array(f.stack);
  return j;
}

Json allocator_fields(Json j, const AllocatorState& a) {
  j["numaMode"] = a.known ? a.numa_mode : std::string("unknown");
  j["numaReason"] = a.known ? a.numa_reason : std::string("the fork did not report");
  j["numaNodes"] = a.numa_nodes;
  j["allocatorOptions"] = a.known ? a.options : std::string("unknown");
  return j;
}

// What the forks' allocators decided (each fork reports its own: fork arguments such as
// --membind change it), not the host's. Forks that differ are listed one by one.
void add_allocator_json(Json& j, const BenchmarkRunResult& run) {
  const model::ForksAllocatorView view = model::forks_allocator_view(run.forks);
  if (!view.differs) {
    j = allocator_fields(std::move(j), view.common);
    return;
  }
  j["numaMode"] = "differs per fork";
  j["numaReason"] = "the forks' allocators decided differently: see forkAllocators";
  j["numaNodes"] = "";
  j["allocatorOptions"] = "differs per fork";
  Json forks = Json::array();
  for (const auto& fork : run.forks) {
    Json f = Json::object();
    f["fork"] = fork.index;
    forks.push_back(allocator_fields(std::move(f), fork.allocator));
  }
  j["forkAllocators"] = std::move(forks);
}

/// A number, or null where it is not known (NaN, or the summary's "< 0: unknown").
Json number_or_null(double v) { return std::isnan(v) || v < 0 ? Json(nullptr) : Json(v); }

/// The preemption evidence: the rule, the counts, and per fork and iteration the flags.
Json disturbance_json(const stats::AggregatedBenchmark& agg) {
  const stats::DisturbanceSummary& d = agg.disturbance;
  Json j = Json::object();
  j["rule"] = stats::rule_text();
  j["measuredIterations"] = d.measured;
  j["disturbedIterations"] = d.disturbed;
  j["likelyInflated"] = d.likely_inflated();
  j["lowestCpuWall"] = d.measured > 0 ? Json(d.lowest_cpu_wall) : Json(nullptr);
  j["mostInvoluntarySwitches"] = d.most_involuntary;
  j["waitShareMax"] = number_or_null(d.most_wait);
  j["othersShareMax"] = number_or_null(d.most_others);
  j["hostStealMax"] = number_or_null(d.most_steal);
  j["loadAverageMax"] = number_or_null(d.most_load);
  // [fork][iteration], in the order of primaryMetric.rawData.
  Json forks = Json::array();
  std::size_t f = 0;
  for (const auto& fork : agg.run->forks) {
    if (fork.warmup_fork || fork.failure) continue;
    Json iterations = Json::array();
    for (std::size_t i = 0; i < fork.measurement.size(); ++i) {
      const auto& it = fork.measurement[i];
      const stats::IterationDisturbance flag =
          f < d.by_fork.size() && i < d.by_fork[f].size() ? d.by_fork[f][i] : stats::IterationDisturbance{};
      Json e = Json::object();
      e["disturbed"] = flag.disturbed();
      e["preempted"] = flag.preempted;
      e["offCpu"] = flag.off_cpu;
      e["waited"] = flag.waited;
      e["crowded"] = flag.crowded;
      e["blocking"] = flag.blocking;
      e["ownThreadsOnly"] = flag.own_threads_only;
      e["cpuWall"] = flag.measured ? Json(flag.cpu_wall) : Json(nullptr);
      e["cpuNs"] = flag.measured ? Json(flag.cpu_ns) : Json(nullptr);
      e["windowNs"] = flag.measured ? Json(flag.window_ns) : Json(nullptr);
      e["waitShare"] = flag.measured ? number_or_null(flag.wait_share) : Json(nullptr);
      e["othersShare"] = number_or_null(it.host.others_share);
      e["idleShare"] = number_or_null(it.host.idle_share);
      e["involuntarySwitches"] = flag.measured ? Json(flag.involuntary) : Json(nullptr);
      e["voluntarySwitches"] = flag.measured ? Json(flag.voluntary) : Json(nullptr);
      e["hostSteal"] = number_or_null(it.host.steal_fraction);
      e["loadAverage"] = number_or_null(it.host.load_average);
      iterations.push_back(std::move(e));
    }
    forks.push_back(std::move(iterations));
    ++f;
  }
  j["iterations"] = std::move(forks);
  return j;
}

/// Profiler notes (text beside a number, e.g. why NUMA mode is off): the last one per label.
Json notes_json(const BenchmarkRunResult& run) {
  Json notes = Json::object();
  for (const auto& fork : run.forks) {
    for (const auto& it : fork.measurement)
      for (const auto& s : it.secondaries)
        if (!s.note.empty()) notes[s.label] = s.note;
    for (const auto& s : fork.trial_secondaries)  // a wrapping profiler's (icount's model)
      if (!s.note.empty()) notes[s.label] = s.note;
  }
  return notes;
}

/// The benchmark's own label (Google Benchmark's SetLabel): text, the last one given.
std::string last_label(const BenchmarkRunResult& run) {
  std::string label;
  for (const auto& fork : run.forks)
    for (const auto& it : fork.measurement)
      if (!it.label.empty()) label = it.label;
  return label;
}

/// -prec: what it reached and what stopped it.
Json precision_json(const PrecisionOutcome& precision) {
  Json p = Json::object();
  p["target"] = precision.target;
  p["reached"] = std::isnan(precision.reached) ? Json() : Json(precision.reached);
  p["stoppedBy"] = precision.stopped_by;
  p["forks"] = precision.forks;
  p["iterations"] = precision.iterations;
  p["plannedIterationsPerFork"] = precision.planned_iterations;
  if (precision.robust) {
    p["of"] = "robustEstimate";
    p["betweenForkDrift"] = std::isnan(precision.drift) ? Json() : Json(precision.drift);
  }
  return p;
}

Json fork_interval_json(const stats::ForkInterval& interval) {
  Json fi = Json::object();
  fi["method"] = stats::kForkIntervalMethod;
  fi["forks"] = interval.forks;
  fi["score"] = interval.score;
  fi["scoreError"] = interval.error;
  fi["scoreConfidence"] = pair_array(interval.confidence.first, interval.confidence.second);
  return fi;
}

Json subwindow_json(const stats::SubwindowMedian& sw) {
  Json s = Json::object();
  s["score"] = sw.score;
  s["subwindows"] = sw.subwindows;
  s["iterations"] = sw.iterations;
  s["targetLengthNs"] = sw.target_ns;
  s["method"] = stats::kSubwindowMethod;
  return s;
}

Json cmh_json(const stats::AggregatedBenchmark& agg, const RunResults& results, const model::RunContext& ctx) {
  const BenchmarkRunResult& run = *agg.run;
  Json j = Json::object();
  j["version"] = ctx.cmh_version;
  j["compiler"] = ctx.compiler;
  j["compilerFlags"] = ctx.compiler_flags;
  j["buildType"] = ctx.build_type;
  j["cpuModel"] = ctx.cpu_model;
  j["cpuCount"] = ctx.cpu_count;
  j["kernel"] = ctx.kernel;
  add_allocator_json(j, run);
  if (!ctx.custom.empty()) {  // --benchmark_context / AddCustomContext
    Json custom = Json::object();
    for (const auto& [key, value] : ctx.custom) custom[key] = value;
    j["context"] = std::move(custom);
  }
  j["warnings"] = string_array(ctx.warnings);
  j["environment"] = environment_json(ctx);
  j["pinning"] = pinning_json(run);
  j["profilers"] = string_array(run.params.profilers);
  j["warmupForks"] = run.params.warmup_forks;
  int completed = 0;
  for (const auto& fork : run.forks) completed += fork.failure ? 0 : 1;
  j["forksCompleted"] = completed;
  j["runComplete"] = results.complete;
  j["failed"] = run.failed();
  if (run.failed()) j["failure"] = failure_json(run);
  if (Json notes = notes_json(run); !notes.empty()) j["notes"] = std::move(notes);
  if (std::string label = last_label(run); !label.empty()) j["label"] = std::move(label);
  j["scoreMeaning"] = stats::score_meaning(run.params);
  if (run.precision) j["precision"] = precision_json(*run.precision);
  if (agg.has_results()) {
    j["forkInterval"] = fork_interval_json(agg.fork_interval);
    j["medianScore"] = agg.median;
  }
  if (const auto& sw = agg.subwindow) j["subwindowMedian"] = subwindow_json(*sw);
  if (agg.robust.available) j["robustEstimate"] = robust_estimate_json(agg.robust, agg.primary.unit);
  if (agg.cpu_time) j["cpuTimeNorm"] = metric_json(*agg.cpu_time, agg.cpu_time->unit, true, false);
  if (agg.total_time) j["totalTimeNorm"] = metric_json(*agg.total_time, agg.total_time->unit, true, false);
  j["disturbance"] = disturbance_json(agg);
  return j;
}

Json record_json(const stats::AggregatedBenchmark& agg, const RunResults& results, const model::RunContext& ctx) {
  const BenchmarkRunResult& run = *agg.run;
  const BenchmarkParams& p = run.params;
  const bool single_shot = p.mode == BenchmarkMode::single_shot;
  Json r = Json::object();
  r["jmhVersion"] = ctx.cmh_version;
  r["benchmark"] = p.benchmark;
  r["mode"] = std::string(mode_short_label(p.mode));
  r["threads"] = p.threads;
  r["forks"] = p.forks;
  r["jvm"] = ctx.executable;
  r["jvmArgs"] = string_array(p.fork_args);
  r["jdkVersion"] = ctx.compiler;
  r["vmName"] = "cmh";
  r["vmVersion"] = ctx.cmh_version;
  r["warmupIterations"] = p.warmup.count;
  // Single-shot iterations have no time; JMH writes "single-shot" unless one was set (-w/-r).
  const auto time_value = [&](Nanos t) {
    return single_shot && t.count() == 0 ? std::string("single-shot") : jmh_time_value(t);
  };
  r["warmupTime"] = time_value(p.warmup.time);
  r["warmupBatchSize"] = p.warmup.batch_size;
  r["measurementIterations"] = p.measurement.count;
  r["measurementTime"] = time_value(p.measurement.time);
  r["measurementBatchSize"] = p.measurement.batch_size;
  if (!p.params.empty()) {
    Json params = Json::object();
    for (const auto& [key, value] : p.params) params[key] = value;  // always strings, as JMH
    r["params"] = std::move(params);
  }
  const bool has_data = agg.has_results();
  r["primaryMetric"] = metric_json(agg.primary, primary_unit_of(agg, p), has_data,
                                   p.mode == BenchmarkMode::sample_time);
  Json secondaries = Json::object();
  for (const auto& m : agg.secondaries) secondaries[m.label] = metric_json(m, m.unit, true, false);
  r["secondaryMetrics"] = std::move(secondaries);
  r["cmh"] = cmh_json(agg, results, ctx);
  return r;
}

}  // namespace

std::string render_jmh_json(const RunResults& results, const model::RunContext& ctx) {
  Json doc = Json::array();
  for (const auto& agg : aggregate_all(results)) doc.push_back(record_json(agg, results, ctx));
  return tidy_json(doc);
}

}  // namespace cmh::formats

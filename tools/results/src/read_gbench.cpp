// SPDX-License-Identifier: MIT
// Google Benchmark's JSON (peers.md section 2.2), from Google Benchmark itself or
// from cmh's -rf gbench. Iteration rows of one run_name are its repetitions, the
// independent samples; aggregate rows are used only when a file holds nothing else
// (--benchmark_report_aggregates_only), as mean/stddev/n for Welch's t.
#include "readers.hpp"

#include <cmath>
#include <limits>
#include <set>

namespace cmh::results {
namespace {

const std::set<std::string>& reserved_keys() {
  static const std::set<std::string> keys = {
      "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
      "repetition_index", "threads", "aggregate_name", "aggregate_unit", "error_occurred", "error_message",
      "iterations", "real_time", "cpu_time", "time_unit", "label", "skipped", "skip_message",
      "big_o", "cpu_coefficient", "real_coefficient", "rms", "max_bytes_used", "total_allocated_bytes",
      "net_heap_growth"};
  return keys;
}

/// "Group.name/key:value/mode:avgt/threads:2" (cmh) or "BM_x/1024/8/threads:4" (Google
/// Benchmark): the first segment is the name, key:value segments are parameters
/// (mode and threads apart), bare segments are positional arguments arg0, arg1, ...
void split_name(const std::string& full, Record& rec, bool& from_cmh) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = full.find('/', start);
    segments.push_back(full.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  rec.name = segments[0];
  rec.mode = "time";
  int positional = 0;
  for (std::size_t i = 1; i < segments.size(); ++i) {
    const std::string& s = segments[i];
    const std::size_t colon = s.find(':');
    if (colon == std::string::npos) {
      rec.params["arg" + std::to_string(positional++)] = s;
      continue;
    }
    const std::string key = s.substr(0, colon), value = s.substr(colon + 1);
    if (key == "mode") {
      rec.mode = value;
      from_cmh = true;
    } else if (key == "threads") {
      rec.threads = std::atoi(value.c_str());
    } else {
      rec.params[key] = value;
    }
  }
}

struct Run {
  Record rec;
  std::vector<const Json*> iterations;
  const Json* mean = nullptr;
  const Json* stddev = nullptr;
  int repetitions = 0;
  bool errors = false;
};

Metric metric_from_rows(const Run& run, const std::string& label, const std::string& unit,
                        const JsonReader& in, const std::string& where, bool primary) {
  Metric m;
  m.label = label;
  m.key = primary ? "score" : metric_key(label);
  m.unit = unit;
  m.raw_are_forks = true;
  m.error = std::numeric_limits<double>::quiet_NaN();
  const char* field = label.c_str();
  if (!run.iterations.empty()) {
    auto& values = m.raw.emplace_back();
    for (const Json* row : run.iterations)
      if (const auto it = row->find(field); it != row->end()) values.push_back(in.number(*it, where));
    double sum = 0;
    for (const double v : values) sum += v;
    m.score = values.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / static_cast<double>(values.size());
  } else {
    Summary s;
    s.mean = in.number(in.member(*run.mean, field, where), where);
    s.stddev = run.stddev && run.stddev->contains(field) ? in.number((*run.stddev)[field], where) : 0.0;
    s.n = run.repetitions;
    m.score = s.mean;
    m.summary = s;
  }
  m.exact = !primary && is_exact_metric(m.key, m.unit);
  m.higher_is_better = is_higher_better(m.key, m.unit, primary);
  return m;
}

}  // namespace

void read_gbench_rows(const Json& doc, const JsonReader& in, ResultFile& out) {
  const Json& rows = in.member(doc, "benchmarks", "");
  if (!rows.is_array()) in.fail("", "\"benchmarks\" is not an array");
  std::vector<Run> runs;
  std::map<std::string, std::size_t> index;
  bool from_cmh = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Json& row = rows[i];
    const std::string where = "benchmarks[" + std::to_string(i) + "]";
    const std::string name = in.string(row, "name", where);
    std::string run_name = name;
    if (const auto rn = row.find("run_name"); rn != row.end() && rn->is_string()) run_name = rn->get<std::string>();
    const bool aggregate = row.value("run_type", std::string("iteration")) == "aggregate";
    auto [pos, inserted] = index.try_emplace(run_name, runs.size());
    if (inserted) {
      runs.emplace_back();
      split_name(run_name, runs.back().rec, from_cmh);
    }
    Run& run = runs[pos->second];
    if (row.value("error_occurred", false) || row.value("skipped", false)) {
      run.errors = true;
      continue;
    }
    if (!row.contains("real_time")) in.fail(where, "missing \"real_time\"");
    if (aggregate) {
      const std::string which = row.value("aggregate_name", std::string());
      if (which == "mean") run.mean = &row;
      if (which == "stddev") run.stddev = &row;
      if (const auto r = row.find("repetitions"); r != row.end() && r->is_number_integer())
        run.repetitions = r->get<int>();
    } else {
      run.iterations.push_back(&row);
    }
  }
  for (auto& run : runs) {
    const Json* first = !run.iterations.empty() ? run.iterations.front() : run.mean;
    if (first == nullptr) {
      run.rec.failed = true;  // only error rows (or aggregates we cannot use)
      run.rec.primary.key = "score";
      run.rec.primary.label = "real_time";
      run.rec.primary.score = std::numeric_limits<double>::quiet_NaN();
      out.records.push_back(std::move(run.rec));
      continue;
    }
    const std::string where = "benchmark \"" + in.string(*first, "name", "") + "\"";
    const std::string time_unit = first->value("time_unit", std::string("ns"));
    run.rec.failed = run.errors && run.iterations.empty();
    run.rec.primary = metric_from_rows(run, "real_time", time_unit + "/op", in, where, true);
    if (first->contains("cpu_time"))
      run.rec.secondaries.push_back(metric_from_rows(run, "cpu_time", time_unit + "/op", in, where, false));
    for (const auto& [key, value] : first->items()) {
      if (reserved_keys().count(key) || !(value.is_number() || value.is_null())) continue;
      const std::string k = metric_key(key);
      const std::string unit = k == "alloc.count.norm" ? "allocs/op" : k == "alloc.rate.norm" ? "B/op" : "";
      run.rec.secondaries.push_back(metric_from_rows(run, key, unit, in, where, false));
    }
    out.records.push_back(std::move(run.rec));
  }
  if (const auto c = doc.find("context"); c != doc.end() && c->is_object()) {
    if (const auto w = c->find("warnings"); w != c->end() && w->is_string() && !w->get<std::string>().empty())
      out.warnings.push_back(w->get<std::string>());
    if (c->contains("cmh_version")) from_cmh = true;
  }
  out.format = from_cmh ? "gbench json (cmh)" : "gbench json";
  read_gbench_context(doc, out);
}

}  // namespace cmh::results

// SPDX-License-Identifier: MIT
// JMH's JSON (jmh.md section 4.1), as Java JMH writes it from 1.21 on and as cmh's
// -rf json writes it: rawData is [fork][iteration]; in sample mode rawDataHistogram
// is [fork][iteration][(value, count)] and each iteration's mean is its raw value.
#include "readers.hpp"


#include <limits>

namespace cmh::results {
namespace {

std::vector<std::vector<double>> raw_scores(const Json& metric, const JsonReader& in, const std::string& where) {
  std::vector<std::vector<double>> forks;
  if (const auto it = metric.find("rawData"); it != metric.end()) {
    if (!it->is_array()) in.fail(where, "\"rawData\" is not an array");
    for (const auto& fork : *it) {
      if (!fork.is_array()) in.fail(where, "\"rawData\" is not an array of arrays");
      auto& values = forks.emplace_back();
      for (const auto& v : fork) values.push_back(in.number(v, where + ".rawData"));
    }
    return forks;
  }
  if (const auto it = metric.find("rawDataHistogram"); it != metric.end()) {
    if (!it->is_array()) in.fail(where, "\"rawDataHistogram\" is not an array");
    for (const auto& fork : *it) {
      if (!fork.is_array()) in.fail(where, "\"rawDataHistogram\" is not [fork][iteration][pair]");
      auto& values = forks.emplace_back();
      for (const auto& iteration : fork) {
        if (!iteration.is_array()) in.fail(where, "\"rawDataHistogram\" is not [fork][iteration][pair]");
        double sum = 0, count = 0;
        for (const auto& pair : iteration) {
          if (!pair.is_array() || pair.size() != 2) in.fail(where, "a histogram entry is not [value, count]");
          const double v = in.number(pair[0], where), n = in.number(pair[1], where);
          sum += v * n;
          count += n;
        }
        if (count > 0) values.push_back(sum / count);
      }
    }
  }
  return forks;
}

Metric read_metric(const Json& m, const std::string& label, bool primary, const JsonReader& in,
                   const std::string& where) {
  Metric out;
  out.label = label;
  out.key = primary ? "score" : metric_key(label);
  out.score = in.number(in.member(m, "score", where), where + ".score");
  const auto err = m.find("scoreError");
  out.error = err == m.end() ? std::numeric_limits<double>::quiet_NaN() : in.number(*err, where + ".scoreError");
  out.unit = in.string(m, "scoreUnit", where);
  out.raw = raw_scores(m, in, where);
  out.exact = !primary && is_exact_metric(out.key, out.unit);
  out.higher_is_better = is_higher_better(out.key, out.unit, primary);
  return out;
}

/// cmh.robustEstimate as a metric: its score, half its interval as the error, its
/// per-iteration values as the raw data, the primary's unit and direction.
Metric read_robust(const Json& e, const Metric& primary, const JsonReader& in, const std::string& where) {
  if (!e.is_object()) in.fail(where, "is not an object");
  Metric m;
  m.label = "robust";
  m.key = "robust";
  m.score = in.number(in.member(e, "score", where), where + ".score");
  m.unit = in.string(e, "scoreUnit", where);
  const Json& interval = in.member(e, "interval", where);
  if (!interval.is_array() || interval.size() != 2) in.fail(where, "\"interval\" is not [low, high]");
  const double lo = in.number(interval[0], where + ".interval"), hi = in.number(interval[1], where + ".interval");
  m.error = (hi - lo) / 2;
  m.raw = raw_scores(e, in, where);
  m.higher_is_better = primary.higher_is_better;
  return m;
}

/// -prof icount writes its counting model into each counted metric's note, before " | ".
void read_icount_models(const Json& cmh, Record& rec) {
  const auto notes = cmh.find("notes");
  if (notes == cmh.end() || !notes->is_object()) return;
  for (auto& m : rec.secondaries) {
    const auto note = notes->find(m.label);
    if (!is_icount_metric(m.key) || note == notes->end() || !note->is_string()) continue;
    const std::string text = note->get<std::string>();
    m.model = text.substr(0, text.find(" | "));
  }
}

}  // namespace

void read_jmh_records(const Json& doc, const JsonReader& in, ResultFile& out) {
  bool any_cmh = false;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const Json& r = doc[i];
    const std::string where = "record " + std::to_string(i + 1);
    Record rec;
    rec.name = in.string(r, "benchmark", where);
    rec.mode = in.string(r, "mode", where);
    if (const auto t = r.find("threads"); t != r.end() && t->is_number_integer()) rec.threads = t->get<int>();
    if (const auto p = r.find("params"); p != r.end()) {
      if (!p->is_object()) in.fail(where, "\"params\" is not an object");
      for (const auto& [k, v] : p->items()) rec.params[k] = v.is_string() ? v.get<std::string>() : v.dump();
    }
    rec.primary = read_metric(in.member(r, "primaryMetric", where), "score", true, in, where + ".primaryMetric");
    if (const auto s = r.find("secondaryMetrics"); s != r.end()) {
      if (!s->is_object()) in.fail(where, "\"secondaryMetrics\" is not an object");
      for (const auto& [label, m] : s->items())
        rec.secondaries.push_back(read_metric(m, label, false, in, where + ".secondaryMetrics." + label));
    }
    read_jmh_environment(r, rec);
    read_disturbance_flags(r, rec);
    if (const auto c = r.find("cmh"); c != r.end() && c->is_object()) {
      any_cmh = true;
      if (const auto e = c->find("robustEstimate"); e != c->end())
        rec.robust = read_robust(*e, rec.primary, in, where + ".cmh.robustEstimate");
      read_icount_models(*c, rec);
      if (const auto f = c->find("failed"); f != c->end() && f->is_boolean()) rec.failed = f->get<bool>();
      if (i == 0)
        if (const auto w = c->find("warnings"); w != c->end() && w->is_array())
          for (const auto& s : *w)
            if (s.is_string()) out.warnings.push_back(s.get<std::string>());
    }
    out.records.push_back(std::move(rec));
  }
  out.format = any_cmh ? "cmh json" : "jmh json";
}

}  // namespace cmh::results

// SPDX-License-Identifier: MIT
#include "changes_output.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace cmh::history {

using Json = nlohmann::json;

std::string percent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100); }

std::vector<FoundChange> find_changes(const std::vector<Series>& all, const DetectOptions& options) {
  std::vector<FoundChange> out;
  for (const Series& s : all)
    for (auto& cp : detect_changes(s, options)) out.push_back(FoundChange{&s, std::move(cp)});
  std::stable_sort(out.begin(), out.end(), [](const FoundChange& a, const FoundChange& b) {
    const Point &pa = a.first_after(), &pb = b.first_after();
    return std::tie(pa.time, pa.seq) < std::tie(pb.time, pb.seq);
  });
  return out;
}

std::string change_line(const FoundChange& c) {
  const ChangePoint& cp = c.change;
  std::string line = fmt::format("{:<11} {} {} {}", cp.direction, describe_point(*c.series), c.series->metric,
                                 percent(cp.effect));
  if (cp.bounded && cp.lo != cp.hi) line += fmt::format(" [{}, {}]", percent(cp.lo), percent(cp.hi));
  if (const auto p = cp.p()) line += fmt::format(" p={:.1e}", *p);
  else line += " (exact)";
  line += fmt::format(" runs {}|{}: last before {}, first after {}", cp.runs_before, cp.runs_after,
                      c.last_before().commit, c.first_after().commit);
  if (!cp.environment_changes.empty()) {
    line += " (also changed:";
    for (const auto& e : cp.environment_changes) line += " " + e + ";";
    line.back() = ')';
  }
  return line;
}

namespace {

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

}  // namespace

std::string changes_json(const std::vector<FoundChange>& changes) {
  Json out = Json::array();
  for (const auto& c : changes) {
    const ChangePoint& cp = c.change;
    Json j = Json::object();
    j["benchmark"] = c.series->benchmark;
    j["params"] = c.series->params;
    j["mode"] = c.series->mode;
    j["threads"] = c.series->threads;
    j["metric"] = c.series->metric;
    j["unit"] = c.series->unit;
    j["firstCommit"] = c.first_after().commit;
    j["lastCommitBefore"] = c.last_before().commit;
    j["firstTime"] = c.first_after().time;
    j["branch"] = c.first_after().branch;
    j["direction"] = cp.direction;
    j["effect"] = number(cp.effect);
    j["interval"] = cp.bounded ? Json::array({number(cp.lo), number(cp.hi)}) : Json(nullptr);
    j["p"] = cp.p() ? number(*cp.p()) : Json(nullptr);
    j["pWelch"] = cp.p_welch ? number(*cp.p_welch) : Json(nullptr);
    j["pMannWhitney"] = cp.p_mann_whitney ? number(*cp.p_mann_whitney) : Json(nullptr);
    j["samples"] = cp.samples;
    j["runsBefore"] = cp.runs_before;
    j["runsAfter"] = cp.runs_after;
    j["environmentChanges"] = cp.environment_changes;
    out.push_back(std::move(j));
  }
  return out.dump(2) + "\n";
}

std::string series_text(const std::vector<Series>& all) {
  std::string out;
  std::string previous_chart;
  const Series* previous = nullptr;
  for (const Series& s : all) {
    const bool new_chart = s.chart_key() != previous_chart;
    std::string line = fmt::format("{} {}: {} runs, {} .. {}, environment {}", describe_point(s), s.metric,
                                   s.points.size(), s.points.front().commit, s.points.back().commit, s.fingerprint);
    if (!new_chart && previous != nullptr) {
      line += " (new segment:";
      for (const auto& d : environment_differences(previous->points.back().environment, s.points.front().environment))
        line += " " + d + ";";
      line.back() = ')';
    }
    out += line + "\n";
    previous_chart = s.chart_key();
    previous = &s;
  }
  return out;
}

std::string series_json(const std::vector<Series>& all) {
  Json out = Json::array();
  for (const Series& s : all) {
    Json j = Json::object();
    j["benchmark"] = s.benchmark;
    j["params"] = s.params;
    j["mode"] = s.mode;
    j["threads"] = s.threads;
    j["metric"] = s.metric;
    j["unit"] = s.unit;
    j["environment"] = s.fingerprint;
    j["runs"] = s.points.size();
    Json commits = Json::array();
    for (const auto& p : s.points) commits.push_back(p.commit);
    j["commits"] = std::move(commits);
    j["environmentDescription"] = s.points.back().environment;
    out.push_back(std::move(j));
  }
  return out.dump(2) + "\n";
}

}  // namespace cmh::history

// SPDX-License-Identifier: MIT
// cmh-history export: one run (the latest, or --commit's) in the input format of a
// service users already have.
//  - bencher: Bencher Metric Format, {"benchmark": {"measure": {"value", "lower_value",
//    "upper_value"}}}; the primary score is "latency" (time per op) or "throughput",
//    secondary metrics keep their names.
//  - github-action-benchmark: its customSmallerIsBetter input, [{"name", "unit",
//    "value", "range", "extra"}]. That action takes every entry of a file in one
//    direction (and its jmh reader takes throughput as smaller-is-better), so throughput
//    is written as its reciprocal, time per op, and metrics where more is better
//    (IPC, items_per_second) are left out.
#include "changes_output.hpp"
#include "commands.hpp"
#include "schema.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <ostream>

namespace cmh::history {
namespace {

using Json = nlohmann::json;

Json finite_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

/// "ops/us" -> "us/op"; nullopt for anything else.
std::optional<std::string> reciprocal_unit(const std::string& unit) {
  if (unit.rfind("ops/", 0) == 0) return unit.substr(4) + "/op";
  return std::nullopt;
}

std::string export_name(const Series& s) { return describe_point(s); }

}  // namespace

int run_export(const CommandLine& cl, std::ostream& out) {
  auto db = open_database(cl.db, false);
  require_readable(*db);
  const auto runs = cl.commit.empty()
                        ? db->query("SELECT run_id, commit_sha FROM runs ORDER BY run_time DESC, seq DESC LIMIT 1", {})
                        : db->query("SELECT run_id, commit_sha FROM runs WHERE commit_sha = $1 "
                                    "ORDER BY run_time DESC, seq DESC LIMIT 1",
                                    {cl.commit});
  if (runs.empty())
    throw HistoryError(cl.commit.empty() ? db->name() + ": holds no run" : "export: no run of commit " + cl.commit);
  const std::string run_id = as_text(runs[0][0]);
  const auto series = load_series(*db, SeriesFilter{cl.metric == "score" ? "all" : cl.metric, ""});
  Json doc = cl.format == "bencher" ? Json::object() : Json::array();
  std::size_t entries = 0;
  for (const Series& s : series) {
    for (const Point& p : s.points) {
      if (p.run_id != run_id) continue;
      const double value = p.metric.score, error = p.metric.error;
      if (cl.format == "bencher") {
        const bool primary = s.metric == "score";
        const std::string measure = !primary ? s.metric : s.higher_is_better ? "throughput" : "latency";
        Json m = Json::object();
        m["value"] = finite_or_null(value);
        if (std::isfinite(error)) {
          m["lower_value"] = value - error;
          m["upper_value"] = value + error;
        }
        doc[export_name(s)][measure] = std::move(m);
        ++entries;
        continue;
      }
      std::string unit = s.unit;
      double v = value, e = error;
      if (s.higher_is_better) {
        const auto flipped = reciprocal_unit(s.unit);
        if (!flipped || !(value > 0)) continue;
        unit = *flipped;
        v = 1.0 / value;
        e = std::isfinite(error) ? v * error / value : error;
      }
      if (!std::isfinite(v)) continue;
      Json entry = Json::object();
      entry["name"] = export_name(s) + (s.metric == "score" ? "" : " " + s.metric);
      entry["unit"] = unit;
      entry["value"] = v;
      if (std::isfinite(e)) entry["range"] = fmt::format("± {:.6g}", e);
      entry["extra"] = fmt::format("commit {}; {} fork(s); cmh-history export of {}", p.commit, p.metric.raw.size(),
                                   s.higher_is_better ? "a throughput (as time per op)" : s.metric);
      doc.push_back(std::move(entry));
      ++entries;
    }
  }
  if (entries == 0) throw HistoryError("export: run " + run_id + " has no result to export");
  const std::string text = doc.dump(2) + "\n";
  if (cl.output.empty()) out << text;
  else write_file(cl.output, text);
  return 0;
}

}  // namespace cmh::history

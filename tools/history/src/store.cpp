// SPDX-License-Identifier: MIT
#include "store.hpp"

#include <nlohmann/json.hpp>

#include "schema.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cmh::history {

using Json = nlohmann::json;

std::string short_hash(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

const std::vector<std::string>& fingerprint_keys() {
  static const std::vector<std::string> keys = {"compiler", "compilerFlags", "buildType", "cpuModel",
                                                "cpuCount", "numaMode", "allocatorOptions", "host",
                                                "runtime", "runtimeArgs"};
  return keys;
}

std::string Series::chart_key() const {
  return benchmark + '\x1f' + Json(params).dump() + '\x1f' + mode + '\x1f' + std::to_string(threads) + '\x1f' +
         metric;
}

std::string describe_point(const Series& s) {
  std::string out = s.benchmark;
  if (!s.params.empty()) {
    out += " (";
    bool first = true;
    for (const auto& [k, v] : s.params) {
      out += (first ? "" : ", ") + k + "=" + v;
      first = false;
    }
    out += ")";
  }
  out += " " + s.mode;
  if (s.threads != 1) out += " threads=" + std::to_string(s.threads);
  return out;
}

InputFile load_input(const std::string& path) {
  InputFile in;
  in.path = path;
  in.parsed = results::read_result_file(path);  // the same reader as cmh-compare's
  std::ifstream f(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << f.rdbuf();
  in.content_hash = short_hash(bytes.str());
  // -rf json's report beside it as -rf html wrote it (same stem): the trend page links it.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path html = fs::path(path).replace_extension(".html");
  if (fs::is_regular_file(html, ec)) in.html_report = fs::absolute(html, ec).string();
  return in;
}

namespace {

std::string now_iso8601() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Json raw_json(const results::Metric& m) {
  Json forks = Json::array();
  for (const auto& fork : m.raw) {
    Json values = Json::array();
    for (const double v : fork) values.push_back(std::isfinite(v) ? Json(v) : Json(nullptr));
    forks.push_back(std::move(values));
  }
  return forks;
}

std::string fingerprint_of(const std::map<std::string, std::string>& env) {
  Json j = Json::object();
  for (const auto& key : fingerprint_keys())
    if (const auto it = env.find(key); it != env.end()) j[key] = it->second;
  return short_hash(j.dump());
}

void insert_metric(Database& db, const std::string& result_id, const results::Metric& m, bool primary) {
  const Value none;
  db.execute(
      "INSERT INTO metrics (result_id, metric, label, unit, is_primary, score, score_error, higher_is_better, "
      "exact, raw, raw_are_forks, summary_mean, summary_stddev, summary_n) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING",
      {result_id, m.key, m.label, m.unit, std::int64_t{primary}, m.score, m.error, std::int64_t{m.higher_is_better},
       std::int64_t{m.exact}, raw_json(m).dump(), std::int64_t{m.raw_are_forks},
       m.summary ? Value(m.summary->mean) : none, m.summary ? Value(m.summary->stddev) : none,
       m.summary ? Value(std::int64_t{m.summary->n}) : none});
}

void insert_record(Database& db, const std::string& run_id, const std::string& file_hash, std::size_t index,
                   const results::Record& r) {
  const Json description(r.environment);
  const std::string env_id = short_hash(description.dump());
  db.execute("INSERT INTO environments (env_id, fingerprint, description) VALUES ($1, $2, $3) "
             "ON CONFLICT (env_id) DO NOTHING",
             {env_id, fingerprint_of(r.environment), description.dump()});
  const std::string result_id = file_hash + ":" + std::to_string(index);
  Json disturbed = Json::array();
  for (const auto& fork : r.disturbed) {
    Json flags = Json::array();
    for (const bool d : fork) flags.push_back(d);
    disturbed.push_back(std::move(flags));
  }
  db.execute("INSERT INTO results (result_id, run_id, file_hash, benchmark, params, mode, threads, forks, env_id, "
             "failed, disturbed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
             {result_id, run_id, file_hash, r.name, Json(r.params).dump(), r.mode, std::int64_t{r.threads},
              static_cast<std::int64_t>(r.primary.raw.size()), env_id, std::int64_t{r.failed}, disturbed.dump()});
  insert_metric(db, result_id, r.primary, true);
  for (const auto& m : r.secondaries) insert_metric(db, result_id, m, false);
}

}  // namespace

AddOutcome add_run(Database& db, const std::vector<InputFile>& files, const RunInfo& run) {
  AddOutcome out;
  Transaction tx(db);
  migrate(db);
  std::vector<const InputFile*> fresh;
  std::vector<std::string> hashes;
  for (const auto& f : files) {
    const bool known = !db.query("SELECT 1 FROM files WHERE file_hash = $1", {f.content_hash}).empty() ||
                       std::find(hashes.begin(), hashes.end(), f.content_hash) != hashes.end();
    if (known) {
      ++out.files_known;
      continue;
    }
    hashes.push_back(f.content_hash);
    fresh.push_back(&f);
  }
  if (!fresh.empty()) {
    std::vector<std::string> sorted = hashes;
    std::sort(sorted.begin(), sorted.end());
    std::string key = run.commit + '\n';
    for (const auto& h : sorted) key += h + '\n';
    out.run_id = short_hash(key);
    const auto seq = db.query("SELECT COALESCE(MAX(seq), 0) + 1 FROM runs", {});
    db.execute("INSERT INTO runs (run_id, seq, commit_sha, branch, run_time, tags, added_at) "
               "VALUES ($1, $2, $3, $4, $5, $6, $7)",
               {out.run_id, as_int(seq.at(0).at(0)), run.commit, run.branch, run.time, Json(run.tags).dump(),
                now_iso8601()});
    for (const InputFile* f : fresh) {
      Json warnings(f->parsed.warnings);
      db.execute("INSERT INTO files (file_hash, run_id, path, format, html_report, warnings) "
                 "VALUES ($1, $2, $3, $4, $5, $6)",
                 {f->content_hash, out.run_id, f->path, f->parsed.format, f->html_report, warnings.dump()});
      for (std::size_t i = 0; i < f->parsed.records.size(); ++i) {
        insert_record(db, out.run_id, f->content_hash, i, f->parsed.records[i]);
        ++out.results_added;
      }
      ++out.files_added;
    }
  }
  tx.commit();
  return out;
}

namespace {

results::Metric metric_from_row(const Row& row, std::size_t c) {
  // c: label, unit, score, score_error, higher_is_better, exact, raw, raw_are_forks, mean, stddev, n
  results::Metric m;
  m.label = as_text(row[c]);
  m.unit = as_text(row[c + 1]);
  m.score = as_double(row[c + 2]);
  m.error = as_double(row[c + 3]);
  m.higher_is_better = as_int(row[c + 4]) != 0;
  m.exact = as_int(row[c + 5]) != 0;
  for (const auto& fork : Json::parse(as_text(row[c + 6]))) {
    auto& values = m.raw.emplace_back();
    for (const auto& v : fork) values.push_back(v.is_number() ? v.get<double>() : std::nan(""));
  }
  m.raw_are_forks = as_int(row[c + 7]) != 0;
  if (!std::holds_alternative<std::monostate>(row[c + 8]))
    m.summary = results::Summary{as_double(row[c + 8]), as_double(row[c + 9]), static_cast<int>(as_int(row[c + 10]))};
  return m;
}

/// Pools a second result of the same run (a benchmark run twice, or in two files)
/// into the point: its forks join the first's.
void pool_into(Point& p, const results::Metric& m) {
  p.metric.raw.insert(p.metric.raw.end(), m.raw.begin(), m.raw.end());
  double sum = 0, n = 0;
  for (const auto& fork : p.metric.raw)
    for (const double v : fork) {
      sum += v;
      ++n;
    }
  if (n > 0) p.metric.score = sum / n;
}

}  // namespace

std::vector<Series> load_series(Database& db, const SeriesFilter& filter) {
  std::string sql =
      "SELECT r.benchmark, r.params, r.mode, r.threads, e.fingerprint, e.description, u.run_id, u.commit_sha, "
      "u.branch, u.run_time, u.seq, f.html_report, r.disturbed, m.metric, "
      "m.label, m.unit, m.score, m.score_error, m.higher_is_better, m.exact, m.raw, m.raw_are_forks, "
      "m.summary_mean, m.summary_stddev, m.summary_n "
      "FROM results r JOIN runs u ON u.run_id = r.run_id JOIN environments e ON e.env_id = r.env_id "
      "JOIN files f ON f.file_hash = r.file_hash JOIN metrics m ON m.result_id = r.result_id "
      "WHERE r.failed = 0";
  std::vector<Value> params;
  if (filter.metric != "all") {
    params.emplace_back(filter.metric);
    sql += " AND m.metric = $" + std::to_string(params.size());
  }
  if (!filter.branch.empty()) {
    params.emplace_back(filter.branch);
    sql += " AND u.branch = $" + std::to_string(params.size());
  }
  sql += " ORDER BY u.run_time, u.seq, r.result_id, m.metric";
  std::map<std::string, Series> by_key;
  for (const Row& row : db.query(sql, params)) {
    Series probe;
    probe.benchmark = as_text(row[0]);
    const Json params_json = Json::parse(as_text(row[1]));
    for (const auto& [k, v] : params_json.items()) probe.params[k] = v.get<std::string>();
    probe.mode = as_text(row[2]);
    probe.threads = static_cast<int>(as_int(row[3]));
    probe.fingerprint = as_text(row[4]);
    probe.metric = as_text(row[13]);
    const std::string key = probe.chart_key() + '\x1f' + probe.fingerprint;
    auto [it, inserted] = by_key.try_emplace(key, std::move(probe));
    Series& s = it->second;
    results::Metric m = metric_from_row(row, 14);
    m.key = s.metric;
    const std::string run_id = as_text(row[6]);
    if (!s.points.empty() && s.points.back().run_id == run_id) {
      pool_into(s.points.back(), m);
      continue;
    }
    s.unit = m.unit;
    s.higher_is_better = m.higher_is_better;
    s.exact = m.exact;
    Point& p = s.points.emplace_back();
    p.run_id = run_id;
    p.commit = as_text(row[7]);
    p.branch = as_text(row[8]);
    p.time = as_text(row[9]);
    p.seq = as_int(row[10]);
    p.html_report = as_text(row[11]);
    const Json environment = Json::parse(as_text(row[5]));
    for (const auto& [k, v] : environment.items()) p.environment[k] = v.get<std::string>();
    for (const auto& fork : Json::parse(as_text(row[12])))
      for (const auto& flag : fork) {
        ++p.iterations;
        if (flag.get<bool>()) ++p.disturbed;
      }
    p.metric = std::move(m);
  }
  std::vector<Series> out;
  for (auto& [key, s] : by_key) out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(), [](const Series& a, const Series& b) {
    if (a.chart_key() != b.chart_key()) return a.chart_key() < b.chart_key();
    return std::tie(a.points.front().time, a.points.front().seq) < std::tie(b.points.front().time, b.points.front().seq);
  });
  return out;
}

}  // namespace cmh::history

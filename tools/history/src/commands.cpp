// SPDX-License-Identifier: MIT
// add, changes, check and series (report and export have files of their own).
#include "commands.hpp"

#include "changes_output.hpp"
#include "git.hpp"
#include "schema.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <regex>

namespace cmh::history {

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      throw HistoryError(path + ": cannot write");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw HistoryError(path + ": cannot write: " + ec.message());
  }
}

namespace {

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string since_time(Database& db, const std::string& since) {
  if (since.empty()) return "";
  static const std::regex date(R"(\d{4}-\d{2}-\d{2}.*)");
  if (std::regex_match(since, date)) return normalize_time(since, "--since");
  const auto rows = db.query("SELECT MIN(run_time) FROM runs WHERE commit_sha = $1", {since});
  if (rows.empty() || std::holds_alternative<std::monostate>(rows[0][0]))
    throw HistoryError("--since " + since + ": no run of that commit in " + db.name());
  return as_text(rows[0][0]);
}

int run_add(const CommandLine& cl, std::ostream& out) {
  // Every file is read and checked before the store is touched: one bad file, nothing written.
  std::vector<InputFile> files;
  for (const auto& path : cl.files) files.push_back(load_input(path));
  RunInfo run;
  run.commit = cl.commit;
  if (run.commit.empty()) {
    const auto head = git_head_commit();
    if (!head) throw HistoryError("add: not inside a git repository: give the commit measured with --commit SHA");
    run.commit = *head;
  }
  run.branch = cl.branch.empty() ? git_current_branch().value_or("") : cl.branch;
  run.time = cl.time.empty() ? now_utc() : cl.time;
  run.tags = cl.tags;
  auto db = open_database(cl.db, true);
  const AddOutcome added = add_run(*db, files, run);
  if (added.run_id.empty()) {
    out << "nothing new: " << added.files_known << " file(s) already in " << db->name() << "\n";
  } else {
    out << "added run " << added.run_id << " of " << run.commit << ": " << added.files_added << " file(s), "
        << added.results_added << " result(s)";
    if (added.files_known > 0) out << "; " << added.files_known << " file(s) already there";
    out << "\n";
  }
  return 0;
}

int run_changes(const CommandLine& cl, std::ostream& out) {
  auto db = open_database(cl.db, false);
  require_readable(*db);
  const std::string since = since_time(*db, cl.since);
  const auto series = load_series(*db, SeriesFilter{cl.metric, ""});
  std::vector<FoundChange> changes;
  for (auto& c : find_changes(series, cl.detect))
    if (since.empty() || c.first_after().time >= since) changes.push_back(std::move(c));
  if (cl.json) {
    out << changes_json(changes);
  } else {
    for (const auto& c : changes) out << change_line(c) << "\n";
  }
  return 0;
}

int run_check(const CommandLine& cl, std::ostream& out) {
  auto db = open_database(cl.db, false);
  require_readable(*db);
  const auto runs = db->query("SELECT branch FROM runs WHERE commit_sha = $1 ORDER BY run_time, seq", {cl.commit});
  if (runs.empty()) throw HistoryError("check: no run of commit " + cl.commit + " in " + db->name());
  const std::string branch = cl.branch.empty() ? as_text(runs.front()[0]) : cl.branch;
  auto series = load_series(*db, SeriesFilter{cl.metric, branch});
  // Each series cut to the commit's runs and the `window` runs of the branch before them.
  for (Series& s : series) {
    std::size_t first = s.points.size(), last = 0;
    for (std::size_t i = 0; i < s.points.size(); ++i)
      if (s.points[i].commit == cl.commit) {
        first = std::min(first, i);
        last = i + 1;
      }
    if (first == s.points.size()) {
      s.points.clear();
      continue;
    }
    const std::size_t begin = first > cl.window ? first - cl.window : 0;
    s.points = std::vector<Point>(s.points.begin() + static_cast<std::ptrdiff_t>(begin),
                                  s.points.begin() + static_cast<std::ptrdiff_t>(last));
  }
  std::erase_if(series, [](const Series& s) { return s.points.empty(); });
  if (series.empty()) throw HistoryError("check: commit " + cl.commit + " has no results on branch " + branch);
  std::vector<FoundChange> regressions;
  for (auto& c : find_changes(series, cl.detect))
    if (c.first_after().commit == cl.commit && c.change.direction == "regression") regressions.push_back(std::move(c));
  if (cl.json) {
    out << changes_json(regressions);
  } else {
    for (const auto& c : regressions) out << change_line(c) << "\n";
    if (regressions.empty())
      out << "no regression starts at " << cl.commit << " (" << series.size() << " series on branch "
          << (branch.empty() ? "(none)" : branch) << ")\n";
  }
  return regressions.empty() ? 0 : 1;
}

int run_series(const CommandLine& cl, std::ostream& out) {
  auto db = open_database(cl.db, false);
  require_readable(*db);
  const auto series = load_series(*db, SeriesFilter{cl.metric, ""});
  out << (cl.json ? series_json(series) : series_text(series));
  return 0;
}

}  // namespace cmh::history

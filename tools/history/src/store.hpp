// SPDX-License-Identifier: MIT
// Writing runs into the store and reading series back out of it.
#pragma once

#include <cmh/results/model.hpp>

#include "database.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cmh::history {

/// One result file to add: what the reader made of it and the bytes it was made from.
struct InputFile {
  std::string path;
  std::string content_hash;  ///< of the bytes: the same file added twice is found by it
  results::ResultFile parsed;
  std::string html_report;   ///< the run's own HTML report stored beside it, or ""
};

/// Reads and checks a file; throws results::InputError (one line) if it is not a result file.
InputFile load_input(const std::string& path);

struct RunInfo {
  std::string commit;
  std::string branch;
  std::string time;  ///< ISO-8601
  std::map<std::string, std::string> tags;
};

struct AddOutcome {
  std::string run_id;        ///< empty when nothing was new
  std::size_t files_added = 0, files_known = 0, results_added = 0;
};

/// Adds the files as one run (all shards of a suite belong together), in one
/// transaction; files already in the store are skipped, so adding again adds nothing.
AddOutcome add_run(Database& db, const std::vector<InputFile>& files, const RunInfo& run);

/// The environment fields that make a series (a change in one starts a new segment);
/// the others (kernel, governor, tool version) are kept and shown as explanations.
const std::vector<std::string>& fingerprint_keys();

/// One run's value of one metric of one benchmark point, with its raw samples.
struct Point {
  std::string run_id, commit, branch, time, html_report;
  std::int64_t seq = 0;
  std::map<std::string, std::string> environment;
  results::Metric metric;
  std::size_t disturbed = 0, iterations = 0;  ///< cmh's flagged iterations, of all measured
};

/// benchmark + params + mode + threads + metric + environment fingerprint, its points in
/// run order (time, then the order they were added).
struct Series {
  std::string benchmark, mode, metric, unit;
  std::map<std::string, std::string> params;
  int threads = 1;
  std::string fingerprint;
  bool higher_is_better = false, exact = false;
  std::vector<Point> points;
  /// benchmark + params + mode + threads + metric: the chart this series is a segment of.
  std::string chart_key() const;
};

struct SeriesFilter {
  std::string metric = "score";  ///< a metric key, or "all"
  std::string branch;            ///< only runs of this branch, if set
};

/// Every series in the store, sorted by chart key then by first run.
std::vector<Series> load_series(Database& db, const SeriesFilter& filter);

/// "name (k=v, ...) mode" (threads when not 1), for lines and titles.
std::string describe_point(const Series& s);

/// FNV-1a, 64 bits, as 16 hex digits. Used for identifiers only (file contents, run
/// and environment keys): no adversary chooses result files, so no cryptographic hash
/// (and no library for one) is needed.
std::string short_hash(const std::string& bytes);

}  // namespace cmh::history

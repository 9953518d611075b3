// SPDX-License-Identifier: MIT
// Several result files read as one: the parts of a suite split over machines
// (-shard), or repeated runs of one build. A benchmark point found in more than one
// file keeps every file's forks side by side, as if they had run in one process.
#include <cmh/results/model.hpp>

#include <cmath>
#include <map>
#include <tuple>

namespace cmh::results {
namespace {

using PointKey = std::tuple<std::string, std::string, int, std::map<std::string, std::string>>;

void pool(Metric& into, const Metric& more) {
  into.raw.insert(into.raw.end(), more.raw.begin(), more.raw.end());
  double sum = 0, n = 0;
  for (const auto& fork : into.raw)
    for (const double v : fork) {
      sum += v;
      ++n;
    }
  if (n > 0) into.score = sum / n;
  into.error = std::nan("");  // the files' own intervals do not combine; the tests use the raw values
  into.summary.reset();
}

void pool(Record& into, const Record& more) {
  pool(into.primary, more.primary);
  for (const auto& m : more.secondaries) {
    bool found = false;
    for (auto& mine : into.secondaries)
      if (mine.key == m.key && mine.unit == m.unit) {
        pool(mine, m);
        found = true;
      }
    if (!found) into.secondaries.push_back(m);
  }
  for (const auto& fork : more.disturbed) into.disturbed.push_back(fork);
  into.failed = into.failed || more.failed;
}

}  // namespace

ResultFile merge_result_files(const std::vector<ResultFile>& files) {
  if (files.size() == 1) return files.front();
  ResultFile out;
  std::map<PointKey, std::size_t> index;
  for (const auto& f : files) {
    out.path += (out.path.empty() ? "" : " + ") + f.path;
    if (out.format.empty()) out.format = f.format;
    else if (out.format != f.format) out.format = "mixed";
    for (const auto& w : f.warnings) out.warnings.push_back(f.path + ": " + w);
    for (const auto& r : f.records) {
      const PointKey key{r.name, r.mode, r.threads, r.params};
      if (const auto it = index.find(key); it != index.end()) {
        pool(out.records[it->second], r);
      } else {
        index.emplace(key, out.records.size());
        out.records.push_back(r);
      }
    }
  }
  return out;
}

}  // namespace cmh::results

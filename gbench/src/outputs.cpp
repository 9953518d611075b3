// SPDX-License-Identifier: MIT
// Outputs (see outputs.hpp).
#include "outputs.hpp"

#include <nlohmann/json.hpp>

#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace benchmark::internal {
namespace {

namespace fs = std::filesystem;

/// The file name cmh gives a format's result file next to a stem (formats/result_format.cpp).
std::string extension(const std::string& cmh_format) {
  if (cmh_format == "gbench") return "gbench.json";
  if (cmh_format == "text") return "txt";
  return cmh_format;
}

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

/// Replaces `path` at once (a reader never sees half a file).
bool write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".cmh-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!(out << text) || !out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

/// Google Benchmark's JSON without the repetition rows of the runs whose aggregates
/// are there and whose repetitions `aggregates_only` leaves out; the text unchanged
/// when nothing is left out.
std::string aggregates_filtered(const std::string& text, const AggregatesOnly& aggregates_only, bool display) {
  auto doc = nlohmann::ordered_json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array()) return text;
  std::set<std::string> aggregated;
  for (const auto& row : doc["benchmarks"])
    if (row.value("run_type", "") == "aggregate") aggregated.insert(row.value("run_name", ""));
  auto& rows = doc["benchmarks"];
  const auto before = rows.size();
  nlohmann::ordered_json kept = nlohmann::ordered_json::array();
  for (auto& row : rows) {
    const std::string run = row.value("run_name", "");
    if (row.value("run_type", "") == "iteration" && aggregated.count(run) != 0 && aggregates_only(run, display))
      continue;
    kept.push_back(std::move(row));
  }
  if (kept.size() == before) return text;
  rows = std::move(kept);
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

Outputs::Outputs(const Translation& t) {
  const bool display = t.display_format.has_value();
  const bool out = t.out_file.has_value();
  if (out) {
    out_path_ = *t.out_file;
    out_format_ = t.out_format;
  }
  if (display) display_format_ = *t.display_format;
  if (!display && !out) return;
  if (out && (!display || display_format_ == out_format_)) {
    // cmh writes the --benchmark_out file itself, after every benchmark.
    out_source_ = out_path_;
    if (display) display_path_ = out_path_;
    args_ = {"-rf", out_format_, "-rff", out_path_};
    return;
  }
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/cmh-gbench-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw FlagError("--benchmark_format: cannot create a temporary directory like " + pattern);
  temp_dir_ = pattern;
  const std::string stem = temp_dir_ + "/result";
  if (!out) {
    display_path_ = stem + "." + extension(display_format_);
    args_ = {"-rf", display_format_, "-rff", display_path_};
    return;
  }
  // Two formats: cmh names each file after the stem.
  display_path_ = stem + "." + extension(display_format_);
  out_source_ = stem + "." + extension(out_format_);
  args_ = {"-rf", display_format_ + "," + out_format_, "-rff", stem};
}

Outputs::~Outputs() {
  if (temp_dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(temp_dir_, ec);
}

bool Outputs::finish(const AggregatesOnly& aggregates_only) {
  bool ok = true;
  // Both are read first: they may be one file, which the file output then rewrites.
  std::string display_text;
  const bool has_display = !display_path_.empty() && read_file(display_path_, display_text);
  if (!out_path_.empty()) {
    std::string text;
    if (read_file(out_source_, text)) {
      const std::string final_text = out_format_ == "gbench" ? aggregates_filtered(text, aggregates_only, false) : text;
      if ((out_source_ != out_path_ || final_text != text) && !write_file(out_path_, final_text)) {
        std::fprintf(stderr, "ERROR: --benchmark_out=%s: cannot write the file\n", out_path_.c_str());
        ok = false;
      }
    }
  }
  if (has_display) {
    std::cout << (display_format_ == "gbench" ? aggregates_filtered(display_text, aggregates_only, true) : display_text);
    std::cout.flush();
  }
  return ok;
}

}  // namespace benchmark::internal

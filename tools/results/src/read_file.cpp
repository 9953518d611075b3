// SPDX-License-Identifier: MIT
// Opening a result file and deciding its format from its shape, so that every
// kind of bad input ends as one InputError line: missing, empty, not JSON
// (truncated), JSON of the wrong shape, or no benchmarks in it.
#include "readers.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cmh::results {

ResultFile parse_result_text(const std::string& text, const std::string& path) {
  JsonReader in(path);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) in.fail("", "the file is empty");
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    const bool at_end = e.byte >= text.size();
    in.fail("", std::string(at_end ? "not valid JSON, it ends early (truncated?)" : "not valid JSON") +
                    " at byte " + std::to_string(e.byte));
  }
  ResultFile out;
  out.path = path;
  if (doc.is_array()) {
    if (doc.empty()) in.fail("", "holds no benchmarks (an empty JSON array)");
    if (!doc[0].is_object() || !doc[0].contains("benchmark") || !doc[0].contains("primaryMetric"))
      in.fail("", "not a result file: a JSON array, but not of JMH records (\"benchmark\", \"primaryMetric\")");
    read_jmh_records(doc, in, out);
  } else if (doc.is_object() && doc.contains("benchmarks")) {
    read_gbench_rows(doc, in, out);
  } else {
    in.fail("", "not a result file: expected JMH/cmh JSON (an array of records) or Google Benchmark JSON "
                "(an object with \"benchmarks\")");
  }
  if (out.records.empty()) in.fail("", "holds no benchmarks");
  return out;
}

ResultFile read_result_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory, not a result file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << f.rdbuf();
  if (f.bad()) throw InputError(path + ": cannot read: " + std::strerror(errno));
  return parse_result_text(text.str(), path);
}

}  // namespace cmh::results

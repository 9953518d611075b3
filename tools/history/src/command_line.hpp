// SPDX-License-Identifier: MIT
// cmh-history's command line: a command, then GNU-style options (tools/README.md).
#pragma once

#include "change_points.hpp"

#include <map>
#include <string>
#include <vector>

namespace cmh::history {

struct CommandLine {
  std::string command;  ///< add, changes, check, series, report, export; empty with --help
  std::string db = "cmh-history.sqlite";
  // add
  std::string commit, branch, time;
  std::map<std::string, std::string> tags;
  std::vector<std::string> files;
  // changes, check, series, report, export
  std::string metric = "score";
  std::string since;
  bool json = false;
  DetectOptions detect;
  std::size_t window = 30;  ///< check: the branch's runs before the commit that it is judged against
  std::string output;       ///< -o FILE
  std::string format;       ///< export: bencher | github-action-benchmark
  bool help = false;
};

/// Throws HistoryError (one line) on a bad command line.
CommandLine parse_command_line(const std::vector<std::string>& args);

/// An ISO-8601 date or time ("2026-05-01", "2026-05-01T12:00:00+02:00") as UTC
/// "YYYY-MM-DDTHH:MM:SSZ", which sorts as text; throws HistoryError otherwise.
std::string normalize_time(const std::string& text, const std::string& option);

extern const char* const kUsage;

}  // namespace cmh::history

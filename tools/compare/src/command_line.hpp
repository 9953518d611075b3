// SPDX-License-Identifier: MIT
// cmh-compare's command line.
#pragma once

#include <cmh/compare/comparison.hpp>
#include "render.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmh::compare {

struct CommandLine {
  std::vector<std::string> files;
  std::vector<std::string> base_side, new_side;  ///< --base F... --new F...: several files per side
  std::string baseline;  ///< --baseline SELECTOR (one file)
  CompareOptions options;
  OutputFormat format = OutputFormat::text;
  std::string output;    ///< -o FILE; empty: stdout
  std::string html;      ///< --html FILE: also write the HTML report
  std::vector<std::string> flame;  ///< --flame BASE_DIR NEW_DIR: sampled stacks of both runs
  std::string flame_out = ".";     ///< --flame-out DIR: where the differential pages go
  bool help = false;
};

/// Throws InputError with a one-line message on a bad command line.
CommandLine parse_command_line(const std::vector<std::string>& args);

/// "5%", "5", "0.5%" -> 0.05, 0.05, 0.005; throws InputError otherwise.
double parse_percent(const std::string& text, const std::string& option);

extern const char* const kUsage;

}  // namespace cmh::compare

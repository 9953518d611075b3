// SPDX-License-Identifier: MIT
// cmh-compare --flame BASE_DIR NEW_DIR: where two runs differ, from the sampled stacks
// both wrote (-prof flame:dir=, or perfasm's saveLog): every benchmark whose
// <name>.speedscope.json is in both directories gets
//  - a differential flame graph normalised per op (each fork's sampled cost divided by
//    that fork's exact op count; per sample would make a faster run look smaller
//    everywhere), coloured only where a frame's cost per op differs beyond its
//    fork-to-fork variance (Welch's t over the forks' values, at --alpha);
//  - the functions ranked by the change of their own (self) cost per op, the changes
//    beyond the forks' variance first.
// The page is <name>.diff.html in --flame-out (default: the current directory); the
// table goes into the text output and, with the graph as static SVG, into --html.
#pragma once

#include <cmh/flame/flame_graph.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cmh::compare {

/// One run's stacks of one benchmark: per stack, each fork's summed sample periods.
struct FlameRun {
  std::string path;
  std::string benchmark;
  std::string event, period_unit;  ///< "cpu-clock", "ns"
  std::vector<std::uint64_t> ops;  ///< per fork
  std::map<std::vector<std::string>, std::vector<double>> stacks;  ///< root-first frames -> per-fork period
};

/// Reads a <name>.speedscope.json written by cmh; throws InputError (one line) otherwise.
FlameRun read_flame_run(const std::string& path);

struct FunctionChange {
  std::string name;
  std::vector<double> base_forks, new_forks;  ///< self cost per op, per fork
  double base = 0, now = 0;                   ///< their means
  double p = 1;                               ///< Welch's t over the forks; 1 when it cannot be tested
  bool tested = false;
  bool significant = false;
};

struct FlameDiff {
  std::string stem;  ///< the file name without .speedscope.json
  std::string benchmark;
  std::string unit;  ///< "ns/op", "cycles/op"
  std::size_t base_forks = 0, new_forks = 0;
  std::vector<FunctionChange> functions;  ///< all: significant changes first, each group by |change|
  flame::FlamePage page;
  std::string page_path;  ///< where the differential page was written ("" if not)
  std::vector<std::string> notes;
};

/// The differential of two runs (pure: nothing read or written).
FlameDiff diff_flame_runs(const FlameRun& base, const FlameRun& now, double alpha);

/// Every benchmark in both directories, its page written into `out_dir`. Throws
/// InputError when a directory cannot be read or nothing matches.
std::vector<FlameDiff> diff_flame_dirs(const std::string& base_dir, const std::string& new_dir,
                                       const std::string& out_dir, double alpha);

/// The top-changes tables for the text output.
std::string flame_diff_text(const std::vector<FlameDiff>& diffs, std::size_t top = 10);
/// A section for the --html page: the table and the graph as static SVG.
std::string flame_diff_html(const std::vector<FlameDiff>& diffs, std::size_t top = 10);

}  // namespace cmh::compare

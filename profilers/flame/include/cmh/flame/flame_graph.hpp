// SPDX-License-Identifier: MIT
// Flame graphs as data and as one self-contained HTML page: a tree of frames built
// from folded stacks ("a;b;c" with a weight), written with its viewer (canvas, search,
// click to zoom, tooltips, flame/icicle) and the data inline, nothing fetched. The same
// page draws -prof flame's graph of one run and cmh-compare's differential of two.
//
// This file depends on nothing of the harness: cmh-compare compiles it too.
#pragma once

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::flame {

struct FlameNode {
  std::string name;
  double value = 0;              ///< the width: cost per op (single run), B's cost per op (differential)
  double samples = 0;            ///< samples (or bytes) behind it, for the tooltip
  /// Differential only: A's cost per op, and +1/-1 when B's cost is significantly
  /// higher/lower than A's (beyond the fork-to-fork variance), 0 when not.
  double before = std::numeric_limits<double>::quiet_NaN();
  int significance = 0;
  std::string note;              ///< extra tooltip text
  std::map<std::string, FlameNode> children;
};

/// Adds `weight` (and `samples`) along the root-first path `frames` under `root`.
void add_stack(FlameNode& root, const std::vector<std::string>& frames, double weight, double samples);

struct FlamePage {
  std::string title;
  std::string subtitle;            ///< one line under the title
  std::vector<std::string> notes;  ///< lines (warnings, how it was made)
  std::string unit;                ///< of FlameNode::value: "ns/op", "cycles/op", "B/op"
  bool differential = false;
  FlameNode root;
};

/// The page: <!DOCTYPE html> ... with the data as JSON and the viewer inline.
std::string flame_graph_html(const FlamePage& page);

/// The same graph as a static SVG (no script): root at the bottom, frames narrower than a
/// pixel left out, a <title> tooltip per frame, the viewer's colours. For pages that run
/// no script (-rf html, cmh-compare --html).
std::string flame_graph_svg(const FlamePage& page, double width = 960);

/// Folded stacks: "a;b;c 123" per line, frames root-first, sorted. Frame names may not hold
/// ';' or newlines (they are replaced by ':' and ' ').
std::string folded_line(const std::vector<std::string>& frames, unsigned long long count);

/// JSON string escaping (with the quotes).
std::string json_string(std::string_view s);

}  // namespace cmh::flame

// SPDX-License-Identifier: MIT
// Writing change points and series: one line each for people, JSON for scripts.
#pragma once

#include "change_points.hpp"
#include "store.hpp"

#include <string>
#include <vector>

namespace cmh::history {

struct FoundChange {
  const Series* series = nullptr;
  ChangePoint change;
  const Point& first_after() const { return series->points[change.index]; }
  const Point& last_before() const { return series->points[change.index - 1]; }
};

/// Change points of every series, in order of the first run after each change.
std::vector<FoundChange> find_changes(const std::vector<Series>& all, const DetectOptions& options);

/// "regression  NAME (k=v) avgt score +12.1% [+10.3%, +13.9%] p=2.0e-06 ... last before A, first after B"
std::string change_line(const FoundChange& c);
/// The array of objects that changes --json prints.
std::string changes_json(const std::vector<FoundChange>& changes);

/// series: one line per segment, or JSON.
std::string series_text(const std::vector<Series>& all);
std::string series_json(const std::vector<Series>& all);

/// "+12.1%"
std::string percent(double fraction);

}  // namespace cmh::history

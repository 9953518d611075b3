// SPDX-License-Identifier: MIT
// cmh-compare --html: one self-contained page (inline CSS and SVG drawn here, no
// script, nothing fetched) with, per benchmark, every metric's ratio and interval
// against the no-change line and its gate, the samples of both sides as points,
// and the verdicts; then unmatched benchmarks and the runs' warnings.
#pragma once

#include <cmh/compare/comparison.hpp>

#include <string>
#include <vector>

namespace cmh::compare {

std::string render_html(const std::vector<Comparison>& pairs, const CompareOptions& options);

}  // namespace cmh::compare

// SPDX-License-Identifier: MIT
// How the report writes numbers, times and columns, as JMH's ScoreFormatter and
// TimeValue do: scores "%.3f" or "≈ 10⁻⁴" below 0.0005, errors floored at 0.001,
// durations "HH:MM:SS", iteration times "100 ms". Padding counts code points, so
// "≈" and "±" line up in the summary table.
#pragma once

#include <cmh/options.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace cmh::report {

/// Decimals of every score and error (JMH's jmh.scorePrecision default).
inline constexpr int kScorePrecision = 3;

/// True when `score` prints as an approximation: below half a unit in the last
/// place (0.0005), zero and negative values included.
bool is_approximate(double score);

/// "12.345", "≈ 10⁻⁴", "≈ 0", "NaN", right-aligned to `width` code points.
std::string format_score(double score, std::size_t width = 0);

/// "0.123", at least "0.001" (a zero error prints as the precision), "NaN".
std::string format_error(double error, std::size_t width = 0);

/// "00:08:23", "2 days, 01:00:00" (negative durations print as zero).
std::string format_duration(std::chrono::seconds d);

/// An iteration time or timeout in its largest exact unit: "1 s", "100 ms", "10 min".
std::string format_time(Nanos t);

/// Width in code points (UTF-8 continuation bytes do not count).
std::size_t display_width(std::string_view s);
std::string pad_left(std::string_view s, std::size_t width);
std::string pad_right(std::string_view s, std::size_t width);

}  // namespace cmh::report

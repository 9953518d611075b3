// SPDX-License-Identifier: MIT
// The report's number formatting (JMH's ScoreFormatter): %.3f, "≈ 10⁻⁴" below
// 0.0005, "≈ 0" for zero and negatives, the 0.001 error floor; durations, times,
// and padding by code points.
#include <doctest/doctest.h>

#include "report/score_format.hpp"

#include <chrono>
#include <cmath>

using namespace cmh::report;
using namespace std::chrono_literals;

TEST_CASE("report: scores print with three decimals, tiny ones as a power of ten") {
  CHECK(format_score(12.3456) == "12.346");
  CHECK(format_score(1230427.79166) == "1230427.792");
  CHECK(format_score(0.0005) == "0.001");  // the smallest exact score
  CHECK(format_score(0.0001) == "≈ 10⁻⁴");
  CHECK(format_score(0.00049) == "≈ 10⁻³");  // log10 = -3.3 rounds to -3
  CHECK(format_score(2.5e-7) == "≈ 10⁻⁷");
  CHECK(format_score(1e-12) == "≈ 10⁻¹²");
  CHECK(format_score(0.0) == "≈ 0");
  CHECK(format_score(-5.0) == "≈ 0");
  CHECK(format_score(std::nan("")) == "NaN");
  CHECK(format_score(HUGE_VAL) == "Infinity");
  CHECK(is_approximate(0.0004999));
  CHECK_FALSE(is_approximate(0.0005));
}

TEST_CASE("report: errors are floored at the printed precision") {
  CHECK(format_error(0.0) == "0.001");
  CHECK(format_error(0.00001) == "0.001");
  CHECK(format_error(0.1234) == "0.123");
  CHECK(format_error(23.399065583844617) == "23.399");
  CHECK(format_error(std::nan("")) == "NaN");
  CHECK(format_error(1.5, 8) == "   1.500");
}

TEST_CASE("report: widths count code points, so approximations align") {
  CHECK(display_width("≈ 10⁻⁴") == 6);
  CHECK(display_width("±") == 1);
  CHECK(format_score(0.0001, 10) == "    ≈ 10⁻⁴");
  CHECK(format_score(1.0, 10) == "     1.000");
  CHECK(pad_right("≈ 0", 5) == "≈ 0  ");
  CHECK(pad_left("toolong", 3) == "toolong");
}

TEST_CASE("report: durations as HH:MM:SS, with days when needed") {
  CHECK(format_duration(503s) == "00:08:23");
  CHECK(format_duration(72s) == "00:01:12");
  CHECK(format_duration(0s) == "00:00:00");
  CHECK(format_duration(-5s) == "00:00:00");
  CHECK(format_duration(std::chrono::seconds(86400 + 3661)) == "1 day, 01:01:01");
  CHECK(format_duration(std::chrono::seconds(2 * 86400)) == "2 days, 00:00:00");
}

TEST_CASE("report: iteration times in their largest exact unit") {
  CHECK(format_time(1s) == "1 s");
  CHECK(format_time(100ms) == "100 ms");
  CHECK(format_time(1500ms) == "1500 ms");
  CHECK(format_time(10min) == "10 min");
  CHECK(format_time(2h) == "2 hr");
  CHECK(format_time(250us) == "250 us");
  CHECK(format_time(7ns) == "7 ns");
  CHECK(format_time(0ns) == "0 ns");
}

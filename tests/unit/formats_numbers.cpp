// SPDX-License-Identifier: MIT
// Number spellings of the result files: Java's Double.toString for JMH's JSON
// (checked against values JMH itself printed) and locale-free fixed notation.
#include <doctest/doctest.h>

#include <cmh/common/numbers.hpp>

#include <charconv>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <limits>
#include <random>
#include <string>

using cmh::formats::fixed;
using cmh::formats::java_double;

TEST_CASE("formats: java_double spells doubles as Java's Double.toString") {
  // Plain notation between 1e-3 and 1e7, always with a fractional digit.
  CHECK(java_double(87.0) == "87.0");
  CHECK(java_double(0.0) == "0.0");
  CHECK(java_double(-0.0) == "-0.0");
  CHECK(java_double(1.0) == "1.0");
  CHECK(java_double(-1.5) == "-1.5");
  CHECK(java_double(0.1) == "0.1");
  CHECK(java_double(0.001) == "0.001");
  CHECK(java_double(100.0) == "100.0");
  CHECK(java_double(99.9999) == "99.9999");
  CHECK(java_double(9999999.0) == "9999999.0");
  CHECK(java_double(1234567.5) == "1234567.5");
  // Values from real JMH files (jmh.md section 4.1).
  CHECK(java_double(46.902503593590836) == "46.902503593590836");
  CHECK(java_double(45.454670110836894) == "45.454670110836894");
  CHECK(java_double(549.7142857142857) == "549.7142857142857");
  // Scientific notation outside that range: d.dddE<exp>, no '+', at least one fractional digit.
  CHECK(java_double(7.491496480476575E-4) == "7.491496480476575E-4");
  CHECK(java_double(0.000999) == "9.99E-4");
  CHECK(java_double(1.0e7) == "1.0E7");
  CHECK(java_double(1.25e7) == "1.25E7");
  CHECK(java_double(-2.5e-5) == "-2.5E-5");
  CHECK(java_double(1e-300) == "1.0E-300");
  CHECK(java_double(std::numeric_limits<double>::max()) == "1.7976931348623157E308");
  // Java prints two digits where one would do, choosing the nearest: Double.MIN_VALUE.
  CHECK(java_double(std::numeric_limits<double>::denorm_min()) == "4.9E-324");
  CHECK(java_double(1e23) == "1.0E23");
  // Non-finite as Java (the JSON printer maps these to JMH's "NaN"/"+INF"/"-INF").
  CHECK(java_double(std::nan("")) == "NaN");
  CHECK(java_double(HUGE_VAL) == "Infinity");
  CHECK(java_double(-HUGE_VAL) == "-Infinity");
}

TEST_CASE("formats: java_double round-trips every double it prints") {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    const std::string s = java_double(v);
    double back = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), back);
    REQUIRE(res.ec == std::errc{});
    REQUIRE(res.ptr == s.data() + s.size());
    CHECK_MESSAGE(back == v, s);
  }
}

TEST_CASE("formats: fixed is printf's %f in the C locale") {
  CHECK(fixed(528.857143, 6) == "528.857143");
  CHECK(fixed(0.0, 6) == "0.000000");
  CHECK(fixed(-1.5, 3) == "-1.500");
  CHECK(fixed(2.0005, 3) == "2.001");  // rounding of the exact binary value, as printf
  CHECK(fixed(1e20, 6) == "100000000000000000000.000000");
  CHECK(fixed(std::numeric_limits<double>::max(), 6).size() == 309 + 7);
  CHECK(fixed(std::nan(""), 6) == "NaN");
  CHECK(fixed(HUGE_VAL, 6) == "Infinity");
  CHECK(fixed(-HUGE_VAL, 3) == "-Infinity");
  char expected[64];
  for (const double v : {0.1, 1.0 / 3.0, 12345.6789, 1e-7, 987654321.123}) {
    std::snprintf(expected, sizeof expected, "%f", v);  // the test runs in the C locale
    CHECK(fixed(v, 6) == expected);
  }
}

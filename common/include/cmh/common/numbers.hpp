// SPDX-License-Identifier: MIT
// Number spellings the result files need, all locale-independent (std::to_chars):
// Java's Double.toString for JMH's JSON, printf-style fixed notation for CSV and
// LaTeX, and the non-finite spellings each format inherited from its tool.
#pragma once

#include <string>

namespace cmh::formats {

/// Java's Double.toString: the shortest digits that read back to the same double,
/// in plain notation for 1e-3 <= |v| < 1e7 ("87.0", "0.001", "1234567.5") and in
/// Java's scientific notation otherwise ("7.491496480476575E-4", "1.0E7").
/// Non-finite values are spelled "NaN", "Infinity", "-Infinity" as Java does.
std::string java_double(double v);

/// A value in full, for exact metrics (B/op, allocs/op): every significant digit, the
/// integer digits grouped by commas: "1,000,016", "1,000,016.5", "0.125"; plain digits in
/// scientific notation only beyond 2^53 ("1e+20"). Non-finite: "NaN", "inf", "-inf".
std::string exact_decimal(double v);

/// printf("%.<decimals>f") in the C locale whatever the current locale is.
/// Non-finite values as Java's String.format: "NaN", "Infinity", "-Infinity".
std::string fixed(double v, int decimals);

}  // namespace cmh::formats

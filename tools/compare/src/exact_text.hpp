// SPDX-License-Identifier: MIT
// Exact metrics (counts per op: B/op, allocs/op) in full: every significant digit with
// thousands separators, and the absolute difference of two runs, so that one more
// 16-byte allocation per op reads as "1,000,000 -> 1,000,016, +16", not as a ratio of 1.
#pragma once

#include <string>

namespace cmh::compare {

/// 1000016 -> "1,000,016"; 1000016.5 -> "1,000,016.5"; the shortest text that reads back exactly.
std::string exact_number(double v);
/// new - base the same way, signed: "+16", "-3.5", "0".
std::string exact_difference(double base, double now);
/// The ratio of two exact values to seven significant digits and the difference: "1.000016 (+16)".
std::string exact_ratio(double base, double now);

}  // namespace cmh::compare

// SPDX-License-Identifier: MIT
// perfasm's console text (JMH's LinuxPerfAsmProfiler layout, printed under
// Secondary result "<benchmark>:asm") and its HTML section for -rf html.
#pragma once

#include "analysis/hot_code.hpp"

#include <string>

namespace cmh::profilers::analysis {

std::string perfasm_text(const HotCode& hc, const PerfasmOptions& options);
std::string perfasm_html(const HotCode& hc, const PerfasmOptions& options);

/// "12.35" for a per-op value: four significant digits, never scientific.
std::string format_per_op(double value);
/// The file's last path component ("bench.cpp" for "/src/x/bench.cpp").
std::string base_name(const std::string& path);

}  // namespace cmh::profilers::analysis

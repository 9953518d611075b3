// SPDX-License-Identifier: MIT
// What the knob readers (knobs_*.cpp) share: per-CPU values grouped for display,
// the choice files' selected word, and the common ways to finish a Knob.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <cmh/machine/knobs.hpp>

namespace cmh::machine::parts {

inline constexpr const char* kCpuDir = "/sys/devices/system/cpu";

/// "/sys/devices/system/cpu/cpu<id>/<rest>".
std::string cpu_path(int cpu, const std::string& rest);

/// Values read per CPU, grouped: {"performance": {0,1}, "powersave": {2,3}}.
using PerCpu = std::map<std::string, std::vector<int>>;

/// "performance" when every CPU agrees, else "performance on 0,1; powersave on 2-7".
std::string describe(const PerCpu& values);

/// The word in brackets of a choice file ("always [madvise] never" -> "madvise"); the
/// whole first line when there are no brackets (a fake tree holds what was written).
std::string selected_word(const std::string& text);

/// True when `word` is one of the space-separated words of `list` (brackets ignored).
bool lists_word(const std::string& list, const std::string& word);

/// A knob of `section` with what it is, what a benchmark wants and why; the reader
/// fills in the reading.
Knob make_knob(std::string section, std::string id, std::string name, std::string wanted, std::string why);

/// Marks the knob unknown with a reason; current and value become "unknown".
void set_unknown(Knob& k, std::string reason);

/// Sets current, value and status from a reading.
void set_reading(Knob& k, std::string current, std::string value, bool ok);

}  // namespace cmh::machine::parts

// SPDX-License-Identifier: MIT
// speedscope_json(): a benchmark's sampled stacks in speedscope's file format, one
// "sampled" profile per fork (weights = summed sample periods), with each fork's exact
// op count under "cmh" so that cmh-compare --flame can put every fork's cost per op
// (flame writes it with whole stacks, perfasm's saveLog with one frame per function).
#pragma once

#include "sampling/profile.hpp"

#include <map>
#include <string>
#include <vector>

namespace cmh::profilers::analysis {

/// Root-first frames -> weight, one map per fork of `profile`.
using ForkStacks = std::vector<std::map<std::vector<std::string>, sampling::Weight>>;

std::string speedscope_json(const sampling::Profile& profile, const std::string& label, const ForkStacks& forks);

}  // namespace cmh::profilers::analysis

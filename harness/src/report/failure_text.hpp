// SPDX-License-Identifier: MIT
// One line that says why a benchmark or fork failed, shared by the console
// report and the summary table.
#pragma once

#include <cmh/result.hpp>

#include <string>

namespace cmh::report {

/// "std::runtime_error: disk full", "forked process failed: signal 11 (Segmentation fault)";
/// never empty (falls back to the failure kind).
std::string describe_failure(const Failure& f);

}  // namespace cmh::report

// SPDX-License-Identifier: MIT
// The machine's state and the workers' placement in the JSON result files:
// cmh.environment (governor, boost, SMT, THP, NUMA balancing, isolation, VM, PMU,
// tuned; the knobs of tools/system/src/machine) and cmh.pinning (per fork and
// thread the CPU, core and node -pin put it on).
#pragma once

#include <cmh/result.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "model/run_context.hpp"

namespace cmh::formats {

/// {"governor": "performance", "boost": "off", ...}; empty object when not detected.
nlohmann::ordered_json environment_json(const model::RunContext& ctx);

/// The same as one string, "governor=performance; boost=off; ...", for Google Benchmark's
/// context block, whose values cmh keeps to strings.
std::string environment_text(const model::RunContext& ctx);

/// {"mode": "none"}, or {"mode": "cpus", "forks": [{"fork": 1, "allowedCpus": ...,
/// "controlCpus": ..., "threads": [{"thread": 0, "cpu": 1, "core": 1, "package": 0,
/// "node": 0}, ...]}, ...]}.
nlohmann::ordered_json pinning_json(const BenchmarkRunResult& run);

}  // namespace cmh::formats

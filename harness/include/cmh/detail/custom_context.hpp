// SPDX-License-Identifier: MIT
// Key-value pairs a framework adds to the run's context before cmh::run_main: Google
// Benchmark's AddCustomContext and --benchmark_context (the gbench layer). They are
// written to the gbench JSON's "context" object, to the JSON's "cmh.context" and to
// each benchmark's header (# Context:).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cmh::detail {

/// Adds a pair; false (nothing changed) when the key is there already.
bool add_custom_context(std::string key, std::string value);

/// The pairs, in the order they were added.
const std::vector<std::pair<std::string, std::string>>& custom_context();

}  // namespace cmh::detail

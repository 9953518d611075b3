// SPDX-License-Identifier: MIT
// Turning whatever a benchmark or fixture threw into a Failure record.
#pragma once

#include <cmh/result.hpp>

#include <exception>
#include <string>

namespace cmh::engine {

/// Call from inside a catch block: describes the exception being handled.
Failure failure_from_current_exception();

Failure make_failure(FailureKind kind, std::string message);

}  // namespace cmh::engine

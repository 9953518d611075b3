// SPDX-License-Identifier: MIT
// The error every result-file writer throws, the atomic write included (one line, for the
// user), here because the tools write files the same way the harness does.
#pragma once

#include <stdexcept>

namespace cmh::formats {

/// A bad -rf value or an unwritable -rff path; the message is one line.
struct FormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace cmh::formats

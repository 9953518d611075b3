// SPDX-License-Identifier: MIT
// cmh-system's three commands. Each prints to `out` and returns the exit status;
// a problem that stops a command is one line on `err` ("cmh-system tune: ...").
#pragma once

#include <iosfwd>

#include "tool/command_line.hpp"

namespace cmh::system {

int run_show(const Options& options, std::ostream& out);
int run_tune(const Options& options, std::ostream& out, std::ostream& err);
int run_reset(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace cmh::system

// SPDX-License-Identifier: MIT
// Every thread's stack of a live fork, taken by a debugger before the host stops the
// fork (a fork hung at start-up, issue 24). eu-stack (elfutils) is tried first: it
// attaches, unwinds and detaches in milliseconds; gdb, where eu-stack is missing or
// fails, reads all the debug information first (3 s for a 45 MB sample executable
// here). Either runs in its own process group with a time limit, and its output is
// cut to a readable size: the report holds a few screens, not a core dump.
#pragma once

#include <sys/types.h>

#include <cmh/options.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace cmh::forking {

struct StackSnapshot {
  std::vector<std::string> lines;  ///< trimmed: "Thread 1234:", then "  #0 pause at pause.c:29", ...
  std::string tool;                ///< "eu-stack" or "gdb"; empty when none ran
  std::string problem;             ///< why there is no stack ("neither eu-stack nor gdb is installed")
};

/// Takes `pid`'s stacks within `limit` (the debugger is killed past it). The process is
/// stopped while the debugger is attached and left running (SIGCONT) afterwards.
StackSnapshot take_stack_snapshot(pid_t pid, Nanos limit);

/// The debugger's raw output (eu-stack's or gdb's format) as the lines a report shows:
/// one header per thread, one line per frame without addresses, each line at most
/// kStackLineChars, at most kStackFrames frames per thread and kStackThreads threads,
/// with a line saying what was left out. Pure, for the unit tests.
std::vector<std::string> trim_stack_output(std::string_view raw);

inline constexpr std::size_t kStackLineChars = 200;
inline constexpr int kStackFrames = 24;
inline constexpr int kStackThreads = 16;

}  // namespace cmh::forking

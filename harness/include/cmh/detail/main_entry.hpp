// SPDX-License-Identifier: MIT
// The benchmark executable's life once the profilers are registered: the public
// cmh::run_main (cmh/main.hpp, main/run_main.cpp) registers them and calls this. Not for
// benchmark code: declared here only so that the composition root (main/) needs no
// private harness header.
#pragma once

namespace cmh::host {
/// Parses the command line, plans, runs (in forks or in-process), reports, writes
/// result files. Returns the process exit status: 0 all benchmarks succeeded,
/// 1 bad command line (nothing ran), 2 some benchmark failed, 128+signal interrupted.
int main_entry(int argc, char** argv);
}  // namespace cmh::host

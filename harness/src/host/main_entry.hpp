// SPDX-License-Identifier: MIT
// The benchmark executable's main(): cmh::main links a main() that calls this.
#pragma once

namespace cmh {
/// Parses the command line, plans, runs (in forks or in-process), reports, writes
/// result files. Returns the process exit status: 0 all benchmarks succeeded,
/// 1 bad command line (nothing ran), 2 some benchmark failed, 128+signal interrupted.
int run_main(int argc, char** argv);
}  // namespace cmh

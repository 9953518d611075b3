// SPDX-License-Identifier: MIT
// The entry point of a benchmark executable, for programs that write their own main().
//
// cmh::main (the library) supplies `int main(argc, argv) { return cmh::run_main(argc, argv); }`.
// Link cmh::cmh instead and call run_main yourself to do something before or after the run:
//
//   #include <cmh/cmh.hpp>
//   #include <cmh/main.hpp>
//   int main(int argc, char** argv) {
//     my_library_init();                 // runs in the host and in every fork
//     return cmh::run_main(argc, argv);  // JMH's command line, forks, report, result files
//   }
//
// A fork re-executes the same program, so whatever main() does before run_main also
// happens in every fork; do not print to stdout there (the host echoes a fork's output).
#pragma once

namespace cmh {
/// Registers the built-in profilers (alloc, rusage, perf, perfnorm, numa), then runs the
/// executable as JMH's runner does: parses the command line, plans, runs every selected
/// benchmark (in forks, or in this process with -f 0), prints the report and writes the
/// result files. In a fork it is the worker and never returns to a second run.
/// Returns the process exit status: 0 every benchmark succeeded, 1 bad command line
/// (nothing ran), 2 some benchmark failed, 128+N interrupted by signal N.
int run_main(int argc, char** argv);
}  // namespace cmh

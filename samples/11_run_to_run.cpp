// SPDX-License-Identifier: MIT
// Sample 11, RunToRun: a process is one sample of the machine; take several.
//
// Two runs of the same binary differ: ASLR places the stack, heap and libraries at
// new addresses (changing cache-set and 4K-aliasing conflicts), the kernel hands out
// different physical pages, the scheduler picks other cores, the clock frequency
// drifts. Within one process these are fixed, so the iterations of one fork agree
// with each other and the error bar looks small, while another fork can sit
// somewhere else entirely. This sample makes the effect explicit and reproducible:
// each process draws its own amount of work once, in setup_trial. With one fork
// (`one_fork`) the error describes that process only; with five (`five_forks`) the
// pooled iterations of all forks make the error honest about the spread between
// processes. Compare the per-fork iteration lines in the output. The harness cannot
// remove run-to-run variance; it can only make you measure it.
//
//   cmh-samples RunToRun
#include <cmh/cmh.hpp>

#include <cstdint>
#include <random>

using namespace std::chrono_literals;

CMH_OPTIONS(RunToRun, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{2, 200ms},
            cmh::measurement{3, 200ms});

namespace {
/// The stand-in for everything a process gets dealt at start-up.
struct ProcessLuck : cmh::BenchmarkState {
  std::uint64_t tokens = 0;
  void setup_trial() {
    std::random_device entropy;  // differs per process, unlike a seeded generator
    tokens = 50 + entropy() % 50;
  }
};
}  // namespace

CMH_BENCHMARK(RunToRun, one_fork, const ProcessLuck& luck) { cmh::Blackhole::consume_cpu(luck.tokens); }
CMH_BENCHMARK_OPTIONS(RunToRun, one_fork, cmh::fork{1});

CMH_BENCHMARK(RunToRun, five_forks, const ProcessLuck& luck) { cmh::Blackhole::consume_cpu(luck.tokens); }
CMH_BENCHMARK_OPTIONS(RunToRun, five_forks, cmh::fork{5});

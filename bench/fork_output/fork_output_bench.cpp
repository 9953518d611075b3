// SPDX-License-Identifier: MIT
// A benchmark body that prints a lot, for bench/fork_output (bench/RESULTS.md, "fork
// output"): each op writes kLinesPerOp lines of 64 bytes to stdout through stdio, as
// a chatty benchmark's logging would. Run forked, past the host's 1 MiB echo cap
// everything goes through the fork's stdout pipe to the host, which only keeps its
// tail; run with -f 0, it goes wherever the run's stdout goes. The score (time per op)
// is the cost of the printing as the benchmark itself sees it.
#include <cmh/cmh.hpp>

#include <chrono>
#include <cstdio>

namespace {

constexpr int kLinesPerOp = 16;
constexpr char kLine[] = "cmh fork-output bench: one line of a chatty benchmark's log....\n";
static_assert(sizeof kLine - 1 == 64);

}  // namespace

using namespace std::chrono_literals;

CMH_OPTIONS(ForkOutput, cmh::mode::average_time, cmh::output_unit{1ns});

CMH_BENCHMARK(ForkOutput, lines, cmh::Blackhole& bh) {
  std::size_t written = 0;
  for (int i = 0; i < kLinesPerOp; ++i) written += std::fwrite(kLine, 1, sizeof kLine - 1, stdout);
  bh.consume(written);
}

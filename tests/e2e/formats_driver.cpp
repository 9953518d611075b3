// SPDX-License-Identifier: MIT
// cmh-formats-driver: writes the fixed synthetic results (tests/unit/formats_fixture.hpp)
// through the real writers, as the host does: make_writers() at start-up, then
// write() after every "completed benchmark", then once more with the run complete.
// Lets the e2e tests feed compare.py and other readers without running benchmarks.
//
//   cmh-formats-driver <formats> <file> [--shift X] [--stop-after N]
//     --shift X       every score multiplied by 1 + X (a second, different run)
//     --stop-after N  stop after N benchmarks, leaving the run marked incomplete
#include "formats/result_format.hpp"
#include "formats_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <formats> <file> [--shift X] [--stop-after N]\n", argv[0]);
    return 1;
  }
  double shift = 0;
  std::size_t stop_after = static_cast<std::size_t>(-1);
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--shift") shift = std::atof(argv[i + 1]);
    else if (flag == "--stop-after") stop_after = std::strtoul(argv[i + 1], nullptr, 10);
  }
  try {
    auto writers = cmh::formats::make_writers(argv[1], argv[2]);
    const cmh::RunResults all = cmh::formats::testing::synthetic_results(shift);
    const cmh::model::RunContext ctx = cmh::formats::testing::synthetic_context();
    cmh::RunResults so_far;
    so_far.planned = all.planned;
    for (const auto& benchmark : all.benchmarks) {
      if (so_far.benchmarks.size() == stop_after) break;
      so_far.benchmarks.push_back(benchmark);
      for (auto& w : writers) w->write(so_far, ctx);
    }
    if (so_far.benchmarks.size() == all.benchmarks.size()) {
      so_far.complete = true;
      for (auto& w : writers) w->write(so_far, ctx);
    }
    for (const auto& w : writers) std::printf("%s\n", w->path().c_str());
  } catch (const cmh::formats::FormatError& e) {
    std::fprintf(stderr, "Error: %s\n", e.what());
    return 1;
  }
  return 0;
}

// SPDX-License-Identifier: MIT
// -quick, -prec and -maxTime: what they store, that explicit flags beat the quick
// preset, and the one-line errors for bad values.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli_fixture.hpp"

using namespace std::chrono_literals;
using cmh::cli::CommandLine;
using cmh::cli::CommandLineError;

using cli_fixture::error_of;
using cli_fixture::parse;

TEST_CASE("-quick: one fork and short iterations, unless the command line says otherwise") {
  const CommandLine q = parse({"-quick"});
  CHECK(q.quick);
  CHECK(q.overrides.fork.count == 1);
  CHECK(q.overrides.warmup.iterations == 2);
  CHECK(q.overrides.warmup.time == 100ms);
  CHECK(q.overrides.measurement.iterations == 5);
  CHECK(q.overrides.measurement.time == 100ms);
  const CommandLine mixed = parse({"-i", "9", "-quick", "-f", "2"});
  CHECK(mixed.overrides.measurement.iterations == 9);
  CHECK(mixed.overrides.fork.count == 2);
  CHECK(mixed.overrides.measurement.time == 100ms);
  CHECK_FALSE(parse({}).quick);
  CHECK(error_of({"-quick=yes"}).find("takes no value") != std::string::npos);
}

TEST_CASE("-prec takes a percentage or a fraction; -maxTime needs -prec") {
  CHECK(*parse({"-prec", "2%"}).precision == doctest::Approx(0.02));
  CHECK(*parse({"-prec", "0.05"}).precision == doctest::Approx(0.05));
  const CommandLine both = parse({"-prec", "1.5%", "-maxTime", "30s"});
  CHECK(*both.precision == doctest::Approx(0.015));
  CHECK(*both.max_time == 30s);
  CHECK_FALSE(parse({}).precision.has_value());
  for (const char* bad : {"0", "100%", "-2%", "2%%", "two", "", "1.5"})
    CHECK_MESSAGE(error_of({"-prec", bad}).find("is not a precision") != std::string::npos, bad);
  CHECK(error_of({"-maxTime", "30s"}).find("give -prec as well") != std::string::npos);
  CHECK(error_of({"-prec", "2%", "-maxTime", "0"}).find("should be positive") != std::string::npos);
}

TEST_CASE("-subwin takes a positive time; without it the option stays unset") {
  CHECK(parse({"-subwin", "1ms"}).overrides.subwindow == 1ms);
  CHECK(parse({"-subwin", "250us"}).overrides.subwindow == 250us);
  CHECK_FALSE(parse({}).overrides.subwindow.has_value());
  CHECK(error_of({"-subwin", "0"}).find("should be positive") != std::string::npos);
  CHECK(error_of({"-subwin", "soon"}).find("soon") != std::string::npos);
}

// SPDX-License-Identifier: MIT
// Unit tests of the command line's value grammars: JMH's time syntax, integers
// with their bounds, booleans, thread counts, modes, units, verbosity and the
// splitting of fork-argument strings.
#include <doctest/doctest.h>

#include <string>

#include "cli/values.hpp"

using namespace std::chrono_literals;
using cmh::BenchmarkMode;
using cmh::Nanos;
using cmh::TimeUnit;
using cmh::cli::CommandLineError;
using cmh::cli::IntBound;

namespace {
std::string error_of(auto&& f) {
  try {
    f();
  } catch (const CommandLineError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("parse_time accepts JMH's time syntax") {
  using cmh::cli::parse_time;
  CHECK(parse_time("100ms") == 100ms);
  CHECK(parse_time("2s") == 2s);
  CHECK(parse_time("1m") == 1min);
  CHECK(parse_time("10 min") == 10min);
  CHECK(parse_time("10min") == 10min);
  CHECK(parse_time("10 MIN") == 10min);
  CHECK(parse_time("5") == 5s);  // a bare number is seconds
  CHECK(parse_time("250us") == 250us);
  CHECK(parse_time("7ns") == 7ns);
  CHECK(parse_time("2hr") == 2h);
  CHECK(parse_time("2h") == 2h);
  CHECK(parse_time("1day") == 24h);
  CHECK(parse_time("0") == Nanos(0));
  CHECK(parse_time(" 3 s ") == 3s);
}

TEST_CASE("parse_time rejects what is not a time, quoting it") {
  using cmh::cli::parse_time;
  for (const char* bad : {"5parsecs", "", "s", "ms", "-5s", "1.5s", "abc", "5 weeks", "10sec", "1e3ms"}) {
    CAPTURE(bad);
    const std::string msg = error_of([&] { parse_time(bad); });
    CHECK(msg.find(std::string("\"") + bad + "\" is not a time") != std::string::npos);
  }
  // Huge times mean forever: cut to kForever, whatever the number of digits.
  CHECK(parse_time("9999999999999day") == cmh::cli::kForever);
  CHECK(parse_time("106751day") == cmh::cli::kForever);
  CHECK(parse_time(std::string(100, '9') + "s") == cmh::cli::kForever);
  CHECK(parse_time("36500day") == cmh::cli::kForever);
  CHECK(parse_time("36499day") < cmh::cli::kForever);
}

TEST_CASE("parse_int applies JMH's bounds") {
  using cmh::cli::parse_int;
  CHECK(parse_int("5", IntBound::positive) == 5);
  CHECK(parse_int("+5", IntBound::positive) == 5);
  CHECK(parse_int("0", IntBound::non_negative) == 0);
  CHECK(parse_int("2147483647", IntBound::positive, 2147483647) == 2147483647);
  CHECK(parse_int("1000000000", IntBound::positive) == 1000000000);
  CHECK(error_of([] { parse_int("1000000001", IntBound::positive); }) ==
        "the value 1000000001 is too large (at most 1000000000)");
  CHECK(error_of([] { parse_int("abc", IntBound::positive); }) == "\"abc\" is not an integer");
  CHECK(error_of([] { parse_int("", IntBound::positive); }) == "\"\" is not an integer");
  CHECK(error_of([] { parse_int("5x", IntBound::positive); }) == "\"5x\" is not an integer");
  CHECK(error_of([] { parse_int("1.0", IntBound::positive); }) == "\"1.0\" is not an integer");
  CHECK(error_of([] { parse_int("-1", IntBound::positive); }) == "the value -1 should be positive");
  CHECK(error_of([] { parse_int("0", IntBound::positive); }) == "the value 0 should be positive");
  CHECK(error_of([] { parse_int("-1", IntBound::non_negative); }) == "the value -1 should be non-negative");
  CHECK(error_of([] { parse_int("2147483648", IntBound::positive); }) == "\"2147483648\" is out of range");
  CHECK(error_of([] { parse_int("99999999999999999999", IntBound::positive); }) ==
        "\"99999999999999999999\" is out of range");
}

TEST_CASE("parse_bool takes true and false in any case, nothing else") {
  using cmh::cli::parse_bool;
  CHECK(parse_bool("true"));
  CHECK(parse_bool("TRUE"));
  CHECK(parse_bool("True"));
  CHECK_FALSE(parse_bool("false"));
  CHECK_FALSE(parse_bool("FALSE"));
  CHECK(error_of([] { parse_bool("yes"); }) == "\"yes\" is not a boolean (true or false)");
  CHECK(error_of([] { parse_bool(""); }) == "\"\" is not a boolean (true or false)");
}

TEST_CASE("parse_threads: counts, max and halfmax") {
  using cmh::cli::parse_threads;
  CHECK(parse_threads("4") == 4);
  CHECK(parse_threads("max") == cmh::kThreadsMax);
  CHECK(parse_threads("MAX") == cmh::kThreadsMax);
  CHECK(parse_threads("halfmax") == cmh::kThreadsHalfMax);
  CHECK(parse_threads("HalfMax") == cmh::kThreadsHalfMax);
  CHECK(error_of([] { parse_threads("0"); }) == "the value 0 should be positive (or max, halfmax)");
  CHECK(error_of([] { parse_threads("-2"); }) == "the value -2 should be positive (or max, halfmax)");
  CHECK(parse_threads("4096") == 4096);
  CHECK(error_of([] { parse_threads("2147483647"); }) ==
        "the value 2147483647 is too large (at most 4096) (or max, halfmax)");
  CHECK(error_of([] { parse_threads("many"); }) == "\"many\" is not an integer (or max, halfmax)");
}

TEST_CASE("parse_mode: full names, short labels and unique prefixes") {
  using cmh::cli::parse_mode;
  using V = std::vector<BenchmarkMode>;
  CHECK(parse_mode("Throughput") == V{BenchmarkMode::throughput});
  CHECK(parse_mode("thrpt") == V{BenchmarkMode::throughput});
  CHECK(parse_mode("t") == V{BenchmarkMode::throughput});
  CHECK(parse_mode("AverageTime") == V{BenchmarkMode::average_time});
  CHECK(parse_mode("avgt") == V{BenchmarkMode::average_time});
  CHECK(parse_mode("av") == V{BenchmarkMode::average_time});
  CHECK(parse_mode("SampleTime") == V{BenchmarkMode::sample_time});
  CHECK(parse_mode("sample") == V{BenchmarkMode::sample_time});
  CHECK(parse_mode("sa") == V{BenchmarkMode::sample_time});
  CHECK(parse_mode("SingleShotTime") == V{BenchmarkMode::single_shot});
  CHECK(parse_mode("ss") == V{BenchmarkMode::single_shot});
  CHECK(parse_mode("All").size() == 4);
  CHECK(parse_mode("all").size() == 4);
  CHECK(parse_mode("al").size() == 4);
  CHECK(error_of([] { parse_mode("fast"); }).starts_with("unknown benchmark mode \"fast\"; known modes: "));
  CHECK(error_of([] { parse_mode("a"); }).starts_with("the benchmark mode prefix \"a\" is ambiguous (avgt or all)"));
  CHECK(error_of([] { parse_mode("s"); }).starts_with("the benchmark mode prefix \"s\" is ambiguous (sample or ss)"));
  CHECK(error_of([] { parse_mode(""); }).starts_with("an empty benchmark mode"));
}

TEST_CASE("parse_time_unit: JMH's units and their long spellings") {
  using cmh::cli::parse_time_unit;
  CHECK(parse_time_unit("ns") == TimeUnit::ns);
  CHECK(parse_time_unit("us") == TimeUnit::us);
  CHECK(parse_time_unit("ms") == TimeUnit::ms);
  CHECK(parse_time_unit("s") == TimeUnit::s);
  CHECK(parse_time_unit("m") == TimeUnit::min);
  CHECK(parse_time_unit("min") == TimeUnit::min);
  CHECK(parse_time_unit("h") == TimeUnit::hr);
  CHECK(parse_time_unit("hr") == TimeUnit::hr);
  CHECK(parse_time_unit("day") == TimeUnit::day);
  CHECK(parse_time_unit("MS") == TimeUnit::ms);
  CHECK(error_of([] { parse_time_unit("weeks"); }) ==
        "unknown time unit \"weeks\"; known units: ns, us, ms, s, m (min), h (hr), day");
}

TEST_CASE("parse_verbosity is case-insensitive") {
  using cmh::cli::parse_verbosity;
  using cmh::report::Verbosity;
  CHECK(parse_verbosity("SILENT") == Verbosity::silent);
  CHECK(parse_verbosity("normal") == Verbosity::normal);
  CHECK(parse_verbosity("Extra") == Verbosity::extra);
  CHECK(error_of([] { parse_verbosity("LOUD"); }) == "unknown verbosity \"LOUD\"; use SILENT, NORMAL or EXTRA");
}

TEST_CASE("split_fork_args splits at spaces and keeps quoted spaces") {
  using cmh::cli::split_fork_args;
  using V = std::vector<std::string>;
  CHECK(split_fork_args("-Xmx1g -Xms1g") == V{"-Xmx1g", "-Xms1g"});
  CHECK(split_fork_args("  -Xmx1g    -XX:+AlwaysPreTouch  ") == V{"-Xmx1g", "-XX:+AlwaysPreTouch"});
  CHECK(split_fork_args("-DMSG=\"hello world\" -Xmx1g") == V{"-DMSG=hello world", "-Xmx1g"});
  CHECK(split_fork_args("'-DA=x y' \"-DB=it's\"") == V{"-DA=x y", "-DB=it's"});
  CHECK(split_fork_args("-DEMPTY=\"\"") == V{"-DEMPTY="});
  CHECK(split_fork_args("\"\"") == V{""});
  CHECK(split_fork_args("").empty());
  CHECK(split_fork_args("   ").empty());
  CHECK(error_of([] { split_fork_args("-DA=\"open"); }) == "an unterminated double quote in \"-DA=\"open\"");
  CHECK(error_of([] { split_fork_args("-DA='open"); }) == "an unterminated single quote in \"-DA='open\"");
}

TEST_CASE("split_list keeps empty pieces") {
  using cmh::cli::split_list;
  using V = std::vector<std::string>;
  CHECK(split_list("a,b", ',') == V{"a", "b"});
  CHECK(split_list("a,,b", ',') == V{"a", "", "b"});
  CHECK(split_list("a", ',') == V{"a"});
  CHECK(split_list("", ',') == V{""});
  CHECK(split_list("a,", ',') == V{"a", ""});
}

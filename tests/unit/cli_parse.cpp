// SPDX-License-Identifier: MIT
// Unit tests of parse_command_line: every flag stores what it should, JMH's
// spellings (-flag value, -flag=value, --flag, prefixes, -f0) work, and every
// bad input is a CommandLineError whose message names the offending text.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli_fixture.hpp"

using namespace std::chrono_literals;
using cmh::BenchmarkMode;
using cmh::TimeUnit;
using cmh::cli::CommandLine;
using cmh::cli::CommandLineError;

using cli_fixture::error_of;
using cli_fixture::parse;

TEST_CASE("an empty command line sets nothing") {
  const CommandLine cl = parse({});
  CHECK(cl.program == "./bench");
  CHECK(cl.includes.empty());
  CHECK(cl.excludes.empty());
  CHECK(cl.overrides.modes.empty());
  CHECK_FALSE(cl.overrides.measurement.iterations);
  CHECK_FALSE(cl.overrides.fork.count);
  CHECK_FALSE(cl.overrides.fork.args);
  CHECK_FALSE(cl.fail_on_error);
  CHECK(cl.verbosity == cmh::report::Verbosity::normal);
  CHECK_FALSE(cl.help);
  CHECK_FALSE(cl.ignore_lock);
}

TEST_CASE("positional words are include regexes, in order, wherever they are") {
  const CommandLine cl = parse({"TAB", "-f", "1", "Hello.*", "-", "--", "-i", "x"});
  CHECK(cl.includes == std::vector<std::string>{"TAB", "Hello.*", "-", "-i", "x"});
  CHECK(cl.overrides.fork.count == 1);
  CHECK_FALSE(cl.overrides.measurement.iterations);
}

TEST_CASE("iteration flags") {
  const CommandLine cl = parse({"-i", "7", "-wi", "0", "-r", "250ms", "-w", "2s", "-bs", "4", "-wbs", "3"});
  CHECK(cl.overrides.measurement.iterations == 7);
  CHECK(cl.overrides.warmup.iterations == 0);
  CHECK(cl.overrides.measurement.time == 250ms);
  CHECK(cl.overrides.warmup.time == 2s);
  CHECK(cl.overrides.measurement.batch_size == 4);
  CHECK(cl.overrides.warmup.batch_size == 3);
}

TEST_CASE("threads, groups, timeout, unit, opi, modes") {
  const CommandLine cl = parse({"-t", "4", "-tg", "3,1", "-to", "30s", "-tu", "ms", "-opi", "10", "-bm", "avgt,ss"});
  CHECK(cl.overrides.threads == 4);
  CHECK(cl.overrides.thread_groups == std::vector<int>{3, 1});
  CHECK(cl.overrides.timeout == 30s);
  CHECK_FALSE(cl.fork_start_timeout.has_value());  // automatic unless given
  CHECK(parse({"-forkStartTimeout", "750ms"}).fork_start_timeout == 750ms);
  CHECK(cl.overrides.output_unit == TimeUnit::ms);
  CHECK(cl.overrides.ops_per_invocation == 10);
  CHECK(cl.overrides.modes == std::vector<BenchmarkMode>{BenchmarkMode::average_time, BenchmarkMode::single_shot});
  CHECK(parse({"-t", "max"}).overrides.threads == cmh::kThreadsMax);
  CHECK(parse({"-t", "halfmax"}).overrides.threads == cmh::kThreadsHalfMax);
  CHECK(parse({"-tg", "0,2"}).overrides.thread_groups == std::vector<int>{0, 2});
  CHECK(parse({"-bm", "all"}).overrides.modes.size() == 4);
  CHECK(parse({"-bm", "thrpt,all"}).overrides.modes.size() == 4);  // no mode twice
  CHECK(parse({"-tg", "3", "-tg", "1"}).overrides.thread_groups == std::vector<int>{3, 1});  // jopt-simple collects
  CHECK(parse({"-bm", "avgt", "-bm", "thrpt"}).overrides.modes ==
        std::vector<BenchmarkMode>{BenchmarkMode::average_time, BenchmarkMode::throughput});
  CHECK(parse({"-bm", "Throughput,SampleTime"}).overrides.modes ==
        std::vector<BenchmarkMode>{BenchmarkMode::throughput, BenchmarkMode::sample_time});
}

TEST_CASE("boolean flags, verbosity, forks") {
  const CommandLine cl = parse({"-si", "false", "-gc", "TRUE", "-foe", "true", "-v", "extra", "-f", "0", "-wf", "2"});
  CHECK(cl.overrides.sync_iterations == false);
  CHECK(cl.overrides.gc_between_iterations == true);
  CHECK(cl.fail_on_error);
  CHECK(cl.verbosity == cmh::report::Verbosity::extra);
  CHECK(cl.overrides.fork.count == 0);
  CHECK(cl.overrides.fork.warmups == 2);
  CHECK(parse({"-v", "SILENT"}).verbosity == cmh::report::Verbosity::silent);
  CHECK(parse({"-v", "Normal"}).verbosity == cmh::report::Verbosity::normal);
  CHECK_FALSE(parse({"-foe", "false"}).fail_on_error);
}

TEST_CASE("output, result files, profilers, excludes") {
  const CommandLine cl = parse({"-o", "out.txt", "-rf", "json", "-rff", "res.json", "-prof", "alloc",
                                "-prof", "gc:churn=true;x=1,2", "-e", "a,b", "-e", "c"});
  CHECK(cl.output_file == "out.txt");
  CHECK(cl.result_format == "json");
  CHECK(cl.result_file == "res.json");
  CHECK(cl.profilers == std::vector<std::string>{"alloc", "gc:churn=true;x=1,2"});  // not split at commas
  CHECK(cl.excludes == std::vector<std::string>{"a", "b", "c"});
  CHECK(parse({"-rf", "json,gbench"}).result_format == "json,gbench");
}

TEST_CASE("listing and help flags") {
  CHECK(parse({"-l"}).list);
  CHECK(parse({"-lp"}).list_with_params);
  CHECK(parse({"-lprof"}).list_profilers);
  CHECK(parse({"-lrf"}).list_formats);
  CHECK(parse({"-h"}).help);
  CHECK(parse({"--help"}).help);
  const CommandLine l = parse({"-l"});
  CHECK_FALSE(l.list_with_params);
  CHECK_FALSE(l.list_profilers);
  CHECK_FALSE(l.list_formats);
}

TEST_CASE("-p: one parameter per flag, values at commas, a repeat adds values") {
  const CommandLine cl = parse({"-p", "size=1,10,100", "-p", "text=a=b", "-p", "size=1000", "-p", "e=,x"});
  CHECK(cl.overrides.params.at("size") == std::vector<std::string>{"1", "10", "100", "1000"});
  CHECK(cl.overrides.params.at("text") == std::vector<std::string>{"a=b"});  // only the first '=' splits
  CHECK(cl.overrides.params.at("e") == std::vector<std::string>{"", "x"});
}

TEST_CASE("fork arguments: split with quotes, aliases, replace/prepend/append kept apart") {
  const CommandLine cl = parse({"-forkArgs", "-Xmx1g -Xms1g", "-jvmArgs", "-DMSG=\"a b\"", "-forkArgsPrepend",
                                "--membind=0", "-jvmArgsAppend", "-XX:+AlwaysPreTouch", "-forkArgsAppend",
                                "-XX:-UseNUMA"});
  REQUIRE(cl.overrides.fork.args);
  CHECK(*cl.overrides.fork.args == std::vector<std::string>{"-Xmx1g", "-Xms1g", "-DMSG=a b"});
  CHECK(cl.overrides.fork.args_prepend == std::vector<std::string>{"--membind=0"});
  CHECK(cl.overrides.fork.args_append == std::vector<std::string>{"-XX:+AlwaysPreTouch", "-XX:-UseNUMA"});
  // An empty -forkArgs is a replacement by nothing, not "not given".
  const CommandLine empty = parse({"-forkArgs", ""});
  REQUIRE(empty.overrides.fork.args);
  CHECK(empty.overrides.fork.args->empty());
  CHECK_FALSE(parse({"-forkArgsAppend", "-Xmx1g"}).overrides.fork.args);
}

TEST_CASE("JMH's spellings: -flag=value, --flag, unique prefixes, a number glued to a letter") {
  CHECK(parse({"-wi=3"}).overrides.warmup.iterations == 3);
  CHECK(parse({"--wi", "3"}).overrides.warmup.iterations == 3);
  CHECK(parse({"--wi=3"}).overrides.warmup.iterations == 3);
  CHECK(parse({"-f0"}).overrides.fork.count == 0);
  CHECK(parse({"-i5"}).overrides.measurement.iterations == 5);
  CHECK(parse({"-r100ms"}).overrides.measurement.time == 100ms);
  CHECK(parse({"-p=size=1"}).overrides.params.at("size") == std::vector<std::string>{"1"});
  CHECK(parse({"-wb", "2"}).overrides.warmup.batch_size == 2);
  CHECK(parse({"-lpr"}).list_profilers);
  CHECK(parse({"-jvmArgsA", "-Xmx1g"}).overrides.fork.args_append == std::vector<std::string>{"-Xmx1g"});
  CHECK(parse({"-forkArgsP", "-Xmx1g"}).overrides.fork.args_prepend == std::vector<std::string>{"-Xmx1g"});
  // Exact names win over the longer names they prefix.
  const CommandLine l = parse({"-l"});
  CHECK(l.list);
  CHECK_FALSE(l.list_with_params);
  CHECK(parse({"-r", "1s", "-rf", "csv", "-rff", "x.csv"}).result_file == "x.csv");
  // A value is the next word whatever it looks like.
  CHECK(parse({"-o", "-l"}).output_file == "-l");
}

TEST_CASE("-Dcmh.ignoreLock on the host command line") {
  CHECK(parse({"-Dcmh.ignoreLock=true"}).ignore_lock);
  CHECK(parse({"-Dcmh.ignoreLock"}).ignore_lock);
  CHECK_FALSE(parse({"-Dcmh.ignoreLock=false"}).ignore_lock);
  CHECK_FALSE(parse({}).ignore_lock);
  CHECK(error_of({"-Dcmh.ignoreLock=maybe"}) ==
        "Property -Dcmh.ignoreLock: \"maybe\" is not a boolean (true or false)");
  CHECK(error_of({"-Dfoo=1"}).starts_with("Unknown property: -Dfoo=1 "));
}

TEST_CASE("every bad input of the issue is an error naming the offending text") {
  CHECK(error_of({"-nosuch"}) == "Unknown option: -nosuch (see -h for the options)");
  CHECK(error_of({"--nosuch=3"}) == "Unknown option: --nosuch=3 (see -h for the options)");
  CHECK(error_of({"-i", "abc"}) == "Option -i: \"abc\" is not an integer");
  CHECK(error_of({"-i", "-1"}) == "Option -i: the value -1 should be positive");
  CHECK(error_of({"-i", "0"}) == "Option -i: the value 0 should be positive");
  CHECK(error_of({"-i"}) == "Option -i needs a value <int>");
  CHECK(error_of({"TAB", "-r"}) == "Option -r needs a value <time>");
  CHECK(error_of({"-r", "5parsecs"}).starts_with("Option -r: \"5parsecs\" is not a time"));
  CHECK(error_of({"-w", "fast"}).starts_with("Option -w: \"fast\" is not a time"));
  CHECK(error_of({"-to", "0"}) == "Option -to: the timeout \"0\" should be positive");
  CHECK(error_of({"-forkStartTimeout", "0"}) == "Option -forkStartTimeout: the start-up timeout \"0\" should be positive");
  CHECK(error_of({"-forkStartTimeout", "soon"}).starts_with("Option -forkStartTimeout: \"soon\" is not a time"));
  CHECK(error_of({"-t", "0"}) == "Option -t: the value 0 should be positive (or max, halfmax)");
  CHECK(error_of({"-t", "lots"}) == "Option -t: \"lots\" is not an integer (or max, halfmax)");
  CHECK(error_of({"-bm", "fast"}).starts_with("Option -bm: unknown benchmark mode \"fast\""));
  CHECK(error_of({"-bm", "thrpt,fast"}).starts_with("Option -bm: unknown benchmark mode \"fast\""));
  CHECK(error_of({"-tu", "weeks"}).starts_with("Option -tu: unknown time unit \"weeks\""));
  CHECK(error_of({"-p", "size"}) == "Option -p: \"size\" is not name=value1,value2,...");
  CHECK(error_of({"-p", "size="}) ==
        "Option -p: no values given for the parameter \"size\" (write size=value1,value2)");
  CHECK(error_of({"-p", "=1"}) == "Option -p: \"=1\" has no parameter name before '='");
  CHECK(error_of({"-v", "LOUD"}) == "Option -v: unknown verbosity \"LOUD\"; use SILENT, NORMAL or EXTRA");
  CHECK(error_of({"-si", "maybe"}) == "Option -si: \"maybe\" is not a boolean (true or false)");
  CHECK(error_of({"-gc", "1"}) == "Option -gc: \"1\" is not a boolean (true or false)");
  CHECK(error_of({"-foe", "yes"}) == "Option -foe: \"yes\" is not a boolean (true or false)");
  CHECK(error_of({"-f", "-1"}) == "Option -f: the value -1 should be non-negative");
  CHECK(error_of({"-wf", "x"}) == "Option -wf: \"x\" is not an integer");
  CHECK(error_of({"-wi", "-3"}) == "Option -wi: the value -3 should be non-negative");
  CHECK(error_of({"-bs", "0"}) == "Option -bs: the value 0 should be positive");
  CHECK(error_of({"-wbs", "0"}) == "Option -wbs: the value 0 should be positive");
  CHECK(error_of({"-opi", "0"}) == "Option -opi: the value 0 should be positive");
  CHECK(error_of({"-tg", "3,x"}) == "Option -tg: \"x\" is not an integer");
  CHECK(error_of({"-tg", "3,-1"}) == "Option -tg: the value -1 should be non-negative");
  CHECK(error_of({"-tg", "0,0"}) == "Option -tg: the thread counts \"0,0\" add up to 0; a group needs a thread");
  CHECK(error_of({"-tg", "0", "-tg", "0"}) == "Option -tg: the thread counts \"0,0\" add up to 0; a group needs a thread");
  CHECK(parse({"-tg", "0", "-tg", "2"}).overrides.thread_groups == std::vector<int>{0, 2});
  CHECK(error_of({"-o", ""}) == "Option -o: needs a file name, got an empty string");
  CHECK(error_of({"-rff", ""}) == "Option -rff: needs a file name, got an empty string");
  CHECK(error_of({"-rf", ""}) == "Option -rf: needs a format name, got an empty string");
  CHECK(error_of({"-prof", ""}) == "Option -prof: needs a profiler name, got an empty string");
  CHECK(error_of({"-forkArgs", "-DX=\"open"}) == "Option -forkArgs: an unterminated double quote in \"-DX=\"open\"");
}

TEST_CASE("grammar errors: repeats, values on value-less flags, ambiguity, wrong case") {
  CHECK(error_of({"-i", "3", "-i", "5"}) == "Option -i is given more than once");
  CHECK(error_of({"-f", "1", "-f=2"}) == "Option -f is given more than once");
  CHECK(error_of({"-l=3"}) == "Option -l takes no value, got \"3\"");
  CHECK(error_of({"-fo", "1"}) ==
        "Option -fo is ambiguous: it abbreviates -foe, -forkArgs, -forkArgsAppend, -forkArgsPrepend, -forkStartTimeout");
  CHECK(error_of({"-b", "1"}) == "Option -b is ambiguous: it abbreviates -bm, -bs");
  CHECK(error_of({"-jvmargs", "-Xmx1g"}) == "Unknown option: -jvmargs (did you mean -jvmArgs?)");
  CHECK(error_of({"-FORKARGS", "-Xmx1g"}) == "Unknown option: -FORKARGS (did you mean -forkArgs?)");
  CHECK(error_of({"-iterations", "5"}) == "Unknown option: -iterations (see -h for the options)");
  CHECK(error_of({"-ix"}) == "Unknown option: -ix (see -h for the options)");
  CHECK(error_of({"-=3"}) == "Unknown option: -=3 (see -h for the options)");
}

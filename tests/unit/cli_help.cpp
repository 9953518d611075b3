// SPDX-License-Identifier: MIT
// Unit tests of the -h text: JMH's layout, every flag of the table documented in
// its 30-column field, cmh's defaults, the fork-argument vocabulary and the
// exit statuses.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/flags.hpp"

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
/// The text with every line's indentation dropped and lines joined by one space,
/// so that checks do not depend on where the description wraps.
std::string flatten(const std::string& text) {
  std::string flat;
  for (const auto& line : lines_of(text)) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos) flat += " " + line.substr(start);
  }
  return flat;
}
}  // namespace

TEST_CASE("help opens with JMH's usage block, naming the executable") {
  const std::string help = cmh::cli::help_text("./build/samples/cmh-samples");
  const auto lines = lines_of(help);
  REQUIRE(lines.size() > 10);
  CHECK(lines[0] == "Usage: ./build/samples/cmh-samples [regexp*] [options]");
  CHECK(lines[1] == " [opt] means optional argument.");
  CHECK(lines[2] == " <opt> means required argument.");
  CHECK(lines[3] == " \"+\" means comma-separated list of values.");
  CHECK(lines[4] == " \"time\" arguments accept time suffixes, like \"100ms\".");
  CHECK(cmh::cli::help_text().starts_with("Usage: <benchmark-executable> [regexp*] [options]\n"));
}

TEST_CASE("every flag of the table has its own line, in a 30-column field") {
  const auto lines = lines_of(cmh::cli::help_text("x"));
  for (const auto& flag : cmh::cli::flag_table()) {
    std::string head = "  -" + std::string(flag.name);
    if (!flag.value_name.empty()) head += " <" + std::string(flag.value_name) + ">";
    CAPTURE(head);
    bool found = false;
    for (const auto& line : lines) {
      if (!line.starts_with(head + " ")) continue;  // "-l" is not "-lp"
      REQUIRE(line.size() > 30);
      CHECK(line.substr(head.size(), 30 - head.size()).find_first_not_of(' ') == std::string::npos);
      CHECK(line[30] != ' ');
      found = true;
    }
    CHECK(found);
  }
}

TEST_CASE("help states cmh's defaults") {
  const std::string flat = flatten(cmh::cli::help_text("x"));
  CHECK(has(flat, "Fresh processes each benchmark runs in"));
  CHECK(has(flat, "(default: 3)"));
  CHECK(has(flat, "(default: 0 for SingleShotTime, and 3 for all other modes)"));
  CHECK(has(flat, "(default: 1 for SingleShotTime, and 5 for all other modes)"));
  CHECK(has(flat, "(a call in progress is finished first). (default: 1 s)"));
  CHECK(has(flat, "(default: 10 min)"));
  CHECK(has(flat, "'halfmax' half of them, rounded up. (default: 1)"));
  CHECK(has(flat, "(default: s for Throughput (ops/s), ns for the time modes (ns/op))"));
  CHECK(has(flat, "(default: NORMAL)"));
  CHECK(has(flat, "(default: Throughput)"));
  CHECK(has(flat, "Also spelled -jvmArgs."));
  CHECK(has(flat, "Also spelled -jvmArgsAppend."));
  CHECK(has(flat, "Also spelled -jvmArgsPrepend."));
}

TEST_CASE("help documents the fork arguments, the host property and the exit statuses") {
  const std::string help = cmh::cli::help_text("x");
  for (const char* entry : {"  -Xmx<size> ", "  -Xms<size> ", "  -XX:+AlwaysPreTouch ", "  -XX:+UseNUMA ",
                            "  -XX:-UseNUMA ", "  -XX:RegionSize=<size> ", "  -XX:DecayTime=<ms> ", "  -XX:-BackgroundPurge ",
                            "  --cpunodebind=<nodes> ", "  --physcpubind=<cpus> ", "  --membind=<nodes> ",
                            "  --interleave=<nodes> ", "  --preferred=<node> ", "  --localalloc ",
                            "  -D<NAME>=<value> ", "  -Dcmh.ignoreLock=true ", "  0 ", "  1 ", "  2 ", "  128+N "}) {
    CAPTURE(entry);
    CHECK(has(help, std::string("\n") + entry));
  }
  CHECK(has(help, "Bad command line; nothing ran."));
  CHECK(has(help, "-lprof"));
  CHECK(has(help, "-lrf"));
}

TEST_CASE("no help line is wider than 100 columns") {
  for (const auto& line : lines_of(cmh::cli::help_text("x"))) {
    CAPTURE(line);
    CHECK(line.size() <= 100);
  }
}

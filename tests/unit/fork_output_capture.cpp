// SPDX-License-Identifier: MIT
// Capture of a fork's stdout/stderr: lines split across reads, the last N kept,
// endless lines cut, echo capped with one note, and every line made printable
// (valid UTF-8 kept, control bytes and invalid sequences replaced).
#include <doctest/doctest.h>

#include "fork/output_capture.hpp"

using namespace cmh::forking;

TEST_CASE("output capture: lines across reads, tail of the last N") {
  std::vector<std::string> echoed;
  OutputCapture c("stdout", 3, [&](std::string_view l) { echoed.emplace_back(l); }, false);
  c.feed("one\ntw");
  c.feed("o\r\nthree\nfour\nfive");
  CHECK(echoed == std::vector<std::string>{"one", "two", "three", "four"});
  c.finish();
  CHECK(echoed.back() == "five");
  CHECK(c.tail() == std::vector<std::string>{"three", "four", "five"});
}

TEST_CASE("output capture: past the echo cap, and with no echo, the tail is still exact") {
  std::size_t echoed = 0;
  OutputCapture c("stdout", 3, [&](std::string_view) { ++echoed; }, false);
  OutputCapture quiet("stdout", 3, nullptr, false);
  std::string block;
  for (int i = 0; i < 100000; ++i) block += "line " + std::to_string(i) + "\n";  // ~1.1 MB
  for (int k = 0; k < 3; ++k) {
    c.feed(block);
    quiet.feed(block);
  }
  c.feed("last\x01 without newline");
  quiet.feed("last\x01 without newline");
  c.finish();
  quiet.finish();
  const std::vector<std::string> expected{"line 99998", "line 99999", "last? without newline"};
  CHECK(c.tail() == expected);
  CHECK(quiet.tail() == expected);
  CHECK(echoed < 100000);  // the echo stopped at the cap
  CHECK(c.total_bytes() == 3 * block.size() + std::string_view("last\x01 without newline").size());
}

TEST_CASE("output capture: an endless line is cut, memory stays bounded") {
  std::size_t lines = 0, longest = 0;
  OutputCapture c("stderr", 20, [&](std::string_view l) { ++lines; longest = std::max(longest, l.size()); }, false);
  const std::string chunk(100000, 'x');
  for (int i = 0; i < 100; ++i) c.feed(chunk);  // 10 MB without a newline
  c.finish();
  CHECK(longest == kMaxLineBytes);
  CHECK(c.tail().size() == 20);
  CHECK(c.total_bytes() == 10'000'000);
  // Echo stops at the limit with a note, the tail keeps going.
  CHECK(lines == kEchoLimitBytes / (kMaxLineBytes + 1) + 1);
}

TEST_CASE("output capture: exactly a full line then a newline is one line") {
  std::vector<std::string> echoed;
  OutputCapture c("stdout", 5, [&](std::string_view l) { echoed.emplace_back(l); }, false);
  c.feed(std::string(kMaxLineBytes, 'a') + "\nb\n");
  CHECK(echoed.size() == 2);
  CHECK(echoed[1] == "b");
}

TEST_CASE("output capture: printable() keeps UTF-8 and replaces the rest") {
  CHECK(printable("plain\ttext") == "plain\ttext");
  CHECK(printable("caf\xc3\xa9 \xe2\x89\x88 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x89\x88 \xf0\x9f\x98\x80");
  CHECK(printable(std::string("a\0b\x1b[31m\x7f", 9)) == "a?b?[31m?");
  CHECK(printable("\xff\xfe") == "??");
  CHECK(printable("\xc3") == "?");              // truncated sequence
  CHECK(printable("\xc0\xaf") == "??");         // overlong
  CHECK(printable("\xed\xa0\x80") == "???");    // surrogate
}

TEST_CASE("output capture: raw text is kept for external profilers when asked") {
  OutputCapture keep("stderr", 2, nullptr, true);
  keep.feed("perf: 123 cycles\n");
  CHECK(keep.kept_text() == "perf: 123 cycles\n");
  OutputCapture drop("stderr", 2, nullptr, false);
  drop.feed("x\n");
  CHECK(drop.kept_text().empty());
}

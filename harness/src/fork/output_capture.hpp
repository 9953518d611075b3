// SPDX-License-Identifier: MIT
// Capture of one of a fork's output streams (stdout or stderr): bytes in, lines
// out. Bounded whatever the fork writes: a line is cut at kMaxLineBytes, only
// the last `tail_lines` lines are kept for the failure report, echoing stops
// after kEchoLimitBytes (with one note; from there on, or when nothing is echoed,
// the bytes are only kept raw and cut into tail lines at the end, so that a fork
// writing hundreds of MB is drained at pipe speed), and the raw text kept for external
// profilers is capped. Lines are made printable: control bytes and invalid UTF-8
// become '?', so binary garbage cannot upset a terminal or a JSON writer.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::forking {

inline constexpr std::size_t kMaxLineBytes = 4096;
inline constexpr std::size_t kEchoLimitBytes = std::size_t{1} << 20;
inline constexpr std::size_t kKeptTextLimit = std::size_t{16} << 20;

/// Control bytes (except tab) and bytes that are not valid UTF-8 become '?'.
std::string printable(std::string_view raw);

class OutputCapture {
 public:
  using LineSink = std::function<void(std::string_view line)>;

  /// `echo` receives every line to echo (nullptr: none); `keep_text` keeps the raw text
  /// (capped) for an external profiler's after_trial.
  OutputCapture(std::string stream_name, std::size_t tail_lines, LineSink echo, bool keep_text);

  void feed(std::string_view bytes);
  /// End of stream: a last line without its newline is completed.
  void finish();

  std::vector<std::string> tail() const { return {tail_.begin(), tail_.end()}; }
  const std::string& kept_text() const { return kept_; }
  std::size_t total_bytes() const { return total_; }
  /// False once nothing more is echoed: the reader may then batch its reads.
  bool echoing() const { return echo_ && !echo_stopped_; }

 private:
  void emit(std::string_view raw_line);
  void feed_raw_rest(std::string_view bytes);
  void add_to_tail(std::string_view raw_line);
  std::size_t raw_tail_bytes() const;

  std::string stream_name_;
  std::size_t tail_lines_;
  LineSink echo_;
  bool keep_text_;
  std::string partial_;
  std::deque<std::string> tail_;
  std::string kept_;
  std::size_t total_ = 0;
  std::size_t echoed_ = 0;
  bool echo_stopped_ = false;
  /// Past the echo (or with none): the last bytes as they came, cut into lines at finish().
  std::string raw_tail_;
  bool raw_tail_cut_ = false;
};

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// Line splitting, tails and sanitising of a fork's stdout/stderr (see output_capture.hpp).
#include "fork/output_capture.hpp"

#include <utility>

namespace cmh::forking {

namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) n = 3;
  else if (c >= 0xF0 && c <= 0xF4) n = 4;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  // Overlong forms, surrogates and code points past U+10FFFF.
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;
  if (c == 0xED && b(i + 1) > 0x9F) return 0;
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;
  if (c == 0xF4 && b(i + 1) > 0x8F) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c < 0x80) {
      out.push_back((c < 0x20 && c != '\t') || c == 0x7F ? '?' : static_cast<char>(c));
      ++i;
    } else if (const std::size_t n = utf8_sequence(raw, i)) {
      out.append(raw.substr(i, n));
      i += n;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

OutputCapture::OutputCapture(std::string stream_name, std::size_t tail_lines, LineSink echo, bool keep_text)
    : stream_name_(std::move(stream_name)), tail_lines_(tail_lines), echo_(std::move(echo)), keep_text_(keep_text) {}

void OutputCapture::feed(std::string_view bytes) {
  total_ += bytes.size();
  if (keep_text_ && kept_.size() < kKeptTextLimit)
    kept_.append(bytes.substr(0, kKeptTextLimit - kept_.size()));
  if (!echo_ || echo_stopped_) {
    // Nothing more to echo: only the tail matters, so the bytes are kept raw and
    // cut into lines once, in tail(). This drains a chatty fork at pipe speed.
    raw_tail_.append(bytes);
    const std::size_t keep = raw_tail_bytes();
    if (raw_tail_.size() > 2 * keep) {
      raw_tail_.erase(0, raw_tail_.size() - keep);
      raw_tail_cut_ = true;
    }
    return;
  }
  while (!bytes.empty()) {
    const auto nl = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, nl);
    // Cut over-long lines so that one endless line cannot grow the buffer.
    const std::size_t room = kMaxLineBytes - partial_.size();
    if (piece.size() > room) {
      partial_.append(piece.substr(0, room));
      emit(partial_);
      partial_.clear();
      bytes.remove_prefix(room);
      continue;
    }
    partial_.append(piece);
    if (nl == std::string_view::npos) break;
    emit(partial_);
    partial_.clear();
    bytes.remove_prefix(nl + 1);
    if (echo_stopped_) {  // the echo cap was passed in this line: the rest goes raw
      feed_raw_rest(bytes);
      return;
    }
  }
}

void OutputCapture::feed_raw_rest(std::string_view bytes) {
  total_ -= bytes.size();  // counted once, by feed()
  const bool keep = keep_text_;
  keep_text_ = false;  // already kept
  feed(bytes);
  keep_text_ = keep;
}

std::size_t OutputCapture::raw_tail_bytes() const { return (tail_lines_ + 1) * (kMaxLineBytes + 1); }

void OutputCapture::finish() {
  if (!partial_.empty()) emit(partial_);
  partial_.clear();
  if (raw_tail_.empty()) return;
  // Cut the raw bytes into lines, as emit() would have, into the tail (no echo).
  std::string_view raw = raw_tail_;
  if (raw_tail_cut_) {  // the first line lost its start: drop it, unless it is one endless line
    const auto nl = raw.find('\n');
    if (nl != std::string_view::npos && nl <= kMaxLineBytes) raw.remove_prefix(nl + 1);
  }
  std::vector<std::string_view> lines;
  while (!raw.empty()) {
    const auto nl = raw.find('\n');
    std::string_view line = raw.substr(0, nl);
    raw.remove_prefix(nl == std::string_view::npos ? raw.size() : nl + 1);
    while (line.size() > kMaxLineBytes) {
      lines.push_back(line.substr(0, kMaxLineBytes));
      line.remove_prefix(kMaxLineBytes);
    }
    lines.push_back(line);
  }
  const std::size_t first = lines.size() > tail_lines_ ? lines.size() - tail_lines_ : 0;
  for (std::size_t i = first; i < lines.size(); ++i) add_to_tail(lines[i]);
  raw_tail_.clear();
}

void OutputCapture::add_to_tail(std::string_view raw_line) {
  if (!raw_line.empty() && raw_line.back() == '\r') raw_line.remove_suffix(1);
  if (tail_lines_ == 0) return;
  if (tail_.size() == tail_lines_) tail_.pop_front();
  tail_.push_back(printable(raw_line));
}

void OutputCapture::emit(std::string_view raw_line) {
  if (!raw_line.empty() && raw_line.back() == '\r') raw_line.remove_suffix(1);
  std::string line = printable(raw_line);
  if (echo_ && !echo_stopped_) {
    echoed_ += line.size() + 1;
    if (echoed_ <= kEchoLimitBytes) {
      echo_(line);
    } else {
      echo_stopped_ = true;
      echo_("<cmh: the fork's " + stream_name_ + " passed " + std::to_string(kEchoLimitBytes >> 20) +
            " MiB; the rest is not echoed, its last " + std::to_string(tail_lines_) +
            " lines are kept for the failure report>");
    }
  }
  if (tail_lines_ == 0) return;
  if (tail_.size() == tail_lines_) tail_.pop_front();
  tail_.push_back(std::move(line));
}


}  // namespace cmh::forking

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
  }
}

void OutputCapture::finish() {
  if (!partial_.empty()) emit(partial_);
  partial_.clear();
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

bool OutputCapture::mentions(std::string_view needle) const {
  for (const auto& line : tail_)
    if (line.find(needle) != std::string::npos) return true;
  return partial_.find(needle) != std::string::npos;
}

}  // namespace cmh::forking

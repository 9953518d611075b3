// SPDX-License-Identifier: MIT
// Frame header encoding and the incremental frame decoder (see frames.hpp).
#include "wire/frames.hpp"

#include <string>


namespace cmh::forking {

namespace {

std::uint32_t payload_length(std::string_view header) {
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n |= std::uint32_t{static_cast<std::uint8_t>(header[4 + i])} << (8 * i);
  return n;
}

}  // namespace

std::string encode_frame(FrameType type, std::string_view payload) {
  if (payload.size() > kMaxFramePayload) throw ProtocolError("frame payload too large");
  ByteWriter w;
  w.put_u8(static_cast<std::uint8_t>(kMagic0));
  w.put_u8(static_cast<std::uint8_t>(kMagic1));
  w.put_u8(kProtocolVersion);
  w.put_u8(static_cast<std::uint8_t>(type));
  w.put_u32(static_cast<std::uint32_t>(payload.size()));
  std::string frame = w.take();
  frame.append(payload);
  return frame;
}

void FrameDecoder::feed(std::string_view bytes) {
  if (start_ > 0 && start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  }
  buffer_.append(bytes);
  check_header();
}

void FrameDecoder::check_header() const {
  const std::string_view rest = std::string_view(buffer_).substr(start_);
  if (rest.size() >= 1 && rest[0] != kMagic0) throw ProtocolError("bad frame magic");
  if (rest.size() >= 2 && rest[1] != kMagic1) throw ProtocolError("bad frame magic");
  if (rest.size() >= 3 && static_cast<std::uint8_t>(rest[2]) != kProtocolVersion)
    throw ProtocolError("frame of protocol version " + std::to_string(static_cast<std::uint8_t>(rest[2])) +
                        ", this host speaks version " + std::to_string(kProtocolVersion));
  if (rest.size() >= 4) {
    const auto type = static_cast<std::uint8_t>(rest[3]);
    if (type == 0 || type > kLastFrameType) throw ProtocolError("unknown frame type " + std::to_string(type));
  }
  if (rest.size() >= kFrameHeaderSize && payload_length(rest) > kMaxFramePayload)
    throw ProtocolError("frame of " + std::to_string(payload_length(rest)) + " bytes exceeds the limit");
}

std::optional<Frame> FrameDecoder::next() {
  check_header();
  const std::string_view rest = std::string_view(buffer_).substr(start_);
  if (rest.size() < kFrameHeaderSize) return std::nullopt;
  const std::uint32_t length = payload_length(rest);
  if (rest.size() - kFrameHeaderSize < length) return std::nullopt;
  Frame frame{static_cast<FrameType>(rest[3]), std::string(rest.substr(kFrameHeaderSize, length))};
  start_ += kFrameHeaderSize + length;
  // Compact once the consumed prefix dominates, so a long stream does not grow the buffer.
  if (start_ > 65536 && start_ * 2 > buffer_.size()) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  return frame;
}

}  // namespace cmh::forking

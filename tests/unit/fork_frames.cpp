// SPDX-License-Identifier: MIT
// The frame decoder on bad streams: wrong magic, version, type or length are
// rejected at the header, before the payload is buffered; a stream that ends
// inside a frame leaves pending bytes (the host reports it as truncated); a
// payload with trailing bytes is rejected by the message decoder.
#include <doctest/doctest.h>

#include "fork/frames.hpp"
#include "fork/messages.hpp"

using namespace cmh::forking;

namespace {
std::string header(char m0, char m1, std::uint8_t version, std::uint8_t type, std::uint32_t length) {
  std::string h{m0, m1, static_cast<char>(version), static_cast<char>(type)};
  for (int i = 0; i < 4; ++i) h.push_back(static_cast<char>(length >> (8 * i)));
  return h;
}
}  // namespace

TEST_CASE("fork frames: bad headers are rejected as soon as they are seen") {
  FrameDecoder d;
  CHECK_THROWS_AS(d.feed("X"), ProtocolError);
  FrameDecoder d2;
  CHECK_THROWS_AS(d2.feed(header('C', 'M', kProtocolVersion + 1, 1, 0)), ProtocolError);
  FrameDecoder d3;
  CHECK_THROWS_AS(d3.feed(header('C', 'M', kProtocolVersion, 0, 0)), ProtocolError);
  FrameDecoder d4;
  CHECK_THROWS_AS(d4.feed(header('C', 'M', kProtocolVersion, 99, 0)), ProtocolError);
  FrameDecoder d5;
  CHECK_THROWS_AS(d5.feed(header('C', 'M', kProtocolVersion, 1, kMaxFramePayload + 1)), ProtocolError);
}

TEST_CASE("fork frames: garbage after a good frame is caught at the next header") {
  FrameDecoder d;
  const std::string good = encode_message(Finish{});
  d.feed(good);
  d.feed("garbage");
  CHECK(d.next().has_value());
  CHECK_THROWS_AS(d.next(), ProtocolError);
}

TEST_CASE("fork frames: a stream cut inside a frame leaves pending bytes") {
  const std::string frame = encode_message(Handshake{kProtocolVersion, 77, {}});
  for (std::size_t cut = 1; cut < frame.size(); ++cut) {
    FrameDecoder d;
    d.feed(std::string_view(frame).substr(0, cut));
    CHECK_FALSE(d.next().has_value());
    CHECK(d.pending() == cut);
  }
}

TEST_CASE("fork frames: payload with trailing bytes or the wrong size is a protocol error") {
  Frame f{FrameType::handshake, std::string(13, '\0')};
  CHECK_THROWS_AS(decode_message(f), ProtocolError);
  Frame g{FrameType::finish, "x"};
  CHECK_THROWS_AS(decode_message(g), ProtocolError);
  Frame h{FrameType::iteration_started, std::string(9, '\0')};  // kind, index, bulk index
  CHECK_NOTHROW(decode_message(h));
}

TEST_CASE("fork frames: a large stream of frames keeps the buffer compact") {
  FrameDecoder d;
  const std::string frame = encode_message(IterationStarted{});
  std::size_t frames = 0;
  for (int i = 0; i < 100000; ++i) {
    d.feed(frame);
    while (d.next()) ++frames;
  }
  CHECK(frames == 100000);
  CHECK(d.pending() == 0);
}

TEST_CASE("the out-of-memory frame built without allocating is the encoder's, byte for byte") {
  using namespace cmh::forking;
  const char* line = "cmh-alloc: heap limit reached (-Xmx8m): cannot allocate 64 bytes\n";
  char buf[512];
  const std::size_t n = encode_out_of_memory_frame(buf, sizeof buf, true, line);
  CHECK(std::string(buf, n) == encode_message(OutOfMemory{true, line}));
  const auto m = decode_message(Frame{FrameType::out_of_memory, std::string(buf + kFrameHeaderSize, n - kFrameHeaderSize)});
  CHECK(std::get<OutOfMemory>(m).line == line);
  CHECK(std::get<OutOfMemory>(m).heap_limit);
  // Cut to fit a small buffer, still a valid frame.
  char small[32];
  const std::size_t k = encode_out_of_memory_frame(small, sizeof small, false, line);
  CHECK(k == sizeof small);
  const auto cut = decode_message(Frame{FrameType::out_of_memory, std::string(small + kFrameHeaderSize, k - kFrameHeaderSize)});
  CHECK(std::get<OutOfMemory>(cut).line == std::string(line, sizeof small - 13));
}

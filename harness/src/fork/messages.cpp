// SPDX-License-Identifier: MIT
// Message <-> frame conversion for the fork protocol (see messages.hpp).
#include "fork/messages.hpp"

#include "fork/codec.hpp"

#include <string>
#include <utility>

namespace cmh::forking {

namespace {

struct Encoder {
  ByteWriter& w;
  FrameType operator()(const Handshake& m) {
    w.put_u32(m.version);
    w.put_i64(m.pid);
    encode(w, m.allocator);
    return FrameType::handshake;
  }
  FrameType operator()(const PlanMessage& m) {
    encode(w, m.plan);
    return FrameType::plan;
  }
  FrameType operator()(const IterationStarted& m) {
    w.put_u8(static_cast<std::uint8_t>(m.kind));
    w.put_i32(m.index);
    return FrameType::iteration_started;
  }
  FrameType operator()(const IterationFinished& m) {
    encode(w, m.result);
    return FrameType::iteration_result;
  }
  FrameType operator()(const IterationFailed& m) {
    w.put_u8(static_cast<std::uint8_t>(m.kind));
    w.put_i32(m.index);
    encode(w, m.failure);
    return FrameType::iteration_failed;
  }
  FrameType operator()(const BenchmarkError& m) {
    encode(w, m.failure);
    return FrameType::benchmark_error;
  }
  FrameType operator()(const Finish&) { return FrameType::finish; }
};

}  // namespace

std::string encode_message(const Message& message) {
  ByteWriter w;
  const FrameType type = std::visit(Encoder{w}, message);
  return encode_frame(type, w.bytes());
}

Message decode_message(const Frame& frame) {
  ByteReader r(frame.payload);
  Message message;
  switch (frame.type) {
    case FrameType::handshake: {
      Handshake m;
      m.version = r.get_u32();
      m.pid = r.get_i64();
      // A fork of another protocol version is refused on the version, not on a short payload.
      if (m.version == kProtocolVersion) decode(r, m.allocator);
      message = m;
      break;
    }
    case FrameType::plan: {
      PlanMessage m;
      decode(r, m.plan);
      message = std::move(m);
      break;
    }
    case FrameType::iteration_started: {
      IterationStarted m;
      m.kind = r.get_enum(IterationKind::measurement, "iteration kind");
      m.index = r.get_i32();
      message = m;
      break;
    }
    case FrameType::iteration_result: {
      IterationFinished m;
      decode(r, m.result);
      message = std::move(m);
      break;
    }
    case FrameType::iteration_failed: {
      IterationFailed m;
      m.kind = r.get_enum(IterationKind::measurement, "iteration kind");
      m.index = r.get_i32();
      decode(r, m.failure);
      message = std::move(m);
      break;
    }
    case FrameType::benchmark_error: {
      BenchmarkError m;
      decode(r, m.failure);
      message = std::move(m);
      break;
    }
    case FrameType::finish:
      message = Finish{};
      break;
    default:
      throw ProtocolError("unknown frame type " + std::to_string(static_cast<int>(frame.type)));
  }
  r.expect_end();
  return message;
}

const char* frame_type_name(FrameType type) {
  switch (type) {
    case FrameType::handshake: return "handshake";
    case FrameType::plan: return "plan";
    case FrameType::iteration_started: return "iteration started";
    case FrameType::iteration_result: return "iteration result";
    case FrameType::iteration_failed: return "iteration failed";
    case FrameType::benchmark_error: return "benchmark error";
    case FrameType::finish: return "finish";
  }
  return "unknown";
}

}  // namespace cmh::forking

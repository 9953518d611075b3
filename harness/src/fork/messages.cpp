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
    // Only this version's handshake carries the allocator state (decode mirrors it), so a
    // handshake of another version re-encodes to the same bytes.
    if (m.version == kProtocolVersion) encode(w, m.allocator);
    return FrameType::handshake;
  }
  FrameType operator()(const PlanMessage& m) {
    encode(w, m.plan);
    w.put_count(m.bulk_warmups.size());
    for (const auto& p : m.bulk_warmups) encode(w, p);
    return FrameType::plan;
  }
  FrameType operator()(const IterationStarted& m) {
    w.put_u8(static_cast<std::uint8_t>(m.kind));
    w.put_i32(m.index);
    w.put_i32(m.bulk);
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
    w.put_i32(m.bulk);
    return FrameType::iteration_failed;
  }
  FrameType operator()(const BenchmarkError& m) {
    encode(w, m.failure);
    return FrameType::benchmark_error;
  }
  FrameType operator()(const Finish&) { return FrameType::finish; }
  FrameType operator()(const OutOfMemory& m) {
    w.put_bool(m.heap_limit);
    w.put_string(m.line);
    return FrameType::out_of_memory;
  }
};

void put_u32_at(char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(static_cast<std::uint8_t>(v >> (8 * i)));
}

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
      m.bulk_warmups.resize(r.get_count(64));  // an encoded plan is far longer than 64 bytes
      for (auto& p : m.bulk_warmups) decode(r, p);
      message = std::move(m);
      break;
    }
    case FrameType::iteration_started: {
      IterationStarted m;
      m.kind = r.get_enum(IterationKind::measurement, "iteration kind");
      m.index = r.get_i32();
      m.bulk = r.get_i32();
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
      m.bulk = r.get_i32();
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
    case FrameType::out_of_memory: {
      OutOfMemory m;
      m.heap_limit = r.get_bool();
      m.line = r.get_string();
      message = std::move(m);
      break;
    }
    default:
      throw ProtocolError("unknown frame type " + std::to_string(static_cast<int>(frame.type)));
  }
  r.expect_end();
  return message;
}

std::size_t encode_out_of_memory_frame(char* buf, std::size_t capacity, bool heap_limit, const char* line) noexcept {
  constexpr std::size_t kFixed = kFrameHeaderSize + 1 + 4;  // header, bool, string length
  if (capacity < kFixed) return 0;
  std::size_t n = 0;
  while (line[n] != '\0' && n < capacity - kFixed) ++n;
  buf[0] = static_cast<char>(kMagic0);
  buf[1] = static_cast<char>(kMagic1);
  buf[2] = static_cast<char>(kProtocolVersion);
  buf[3] = static_cast<char>(FrameType::out_of_memory);
  put_u32_at(buf + 4, static_cast<std::uint32_t>(1 + 4 + n));
  buf[8] = heap_limit ? 1 : 0;
  put_u32_at(buf + 9, static_cast<std::uint32_t>(n));
  for (std::size_t i = 0; i < n; ++i) buf[kFixed + i] = line[i];
  return kFixed + n;
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
    case FrameType::out_of_memory: return "out of memory";
  }
  return "unknown";
}

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// The typed messages of the host<->fork protocol, one per frame type, and their
// conversion to and from frames. decode_message() is the single place a frame's
// payload is interpreted; it throws ProtocolError for anything malformed.
#pragma once

#include <cmh/params.hpp>
#include <cmh/result.hpp>

#include <cstdint>
#include <string>
#include <variant>

#include "fork/frames.hpp"

namespace cmh::forking {

struct Handshake {
  std::uint32_t version = kProtocolVersion;
  std::int64_t pid = 0;
  /// The fork's allocator decisions, fixed at its start-up: they hold for every result
  /// the fork sends (protocol version 2).
  AllocatorState allocator;
};
struct PlanMessage {
  BenchmarkParams plan;
};
struct IterationStarted {
  IterationKind kind = IterationKind::measurement;
  int index = 1;
};
struct IterationFinished {
  IterationResult result;
};
struct IterationFailed {
  IterationKind kind = IterationKind::measurement;
  int index = 1;
  Failure failure;
};
struct BenchmarkError {
  Failure failure;
};
struct Finish {};

using Message = std::variant<Handshake, PlanMessage, IterationStarted, IterationFinished, IterationFailed,
                             BenchmarkError, Finish>;

/// The whole frame (header + payload) for a message.
std::string encode_message(const Message& message);
/// Interprets a frame; throws ProtocolError when the payload is not a valid encoding.
Message decode_message(const Frame& frame);

/// "handshake", "plan", ... for diagnostics.
const char* frame_type_name(FrameType type);

}  // namespace cmh::forking

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
#include <vector>

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
  /// -wm BULK / -wmb: plans whose warmup iterations the fork runs first, in this order.
  std::vector<BenchmarkParams> bulk_warmups{};
};
struct IterationStarted {
  IterationKind kind = IterationKind::measurement;
  int index = 1;
  int bulk = -1;  ///< the bulk warmup it belongs to (PlanMessage::bulk_warmups), -1: the plan's own
};
struct IterationFinished {
  IterationResult result;
};
struct IterationFailed {
  IterationKind kind = IterationKind::measurement;
  int index = 1;
  Failure failure;
  int bulk = -1;  ///< as IterationStarted::bulk
};
struct BenchmarkError {
  Failure failure;
};
struct Finish {};
/// Sent from inside the failing allocation (the allocator's OOM hook), so the host
/// knows the cause even when the fork crashes right after.
struct OutOfMemory {
  bool heap_limit = false;  ///< -Xmx refused it (else the OS did)
  std::string line;         ///< the allocator's report line
};

using Message = std::variant<Handshake, PlanMessage, IterationStarted, IterationFinished, IterationFailed,
                             BenchmarkError, Finish, OutOfMemory>;

/// The whole frame (header + payload) for a message.
std::string encode_message(const Message& message);
/// Interprets a frame; throws ProtocolError when the payload is not a valid encoding.
Message decode_message(const Frame& frame);

/// The OutOfMemory frame, byte for byte as encode_message() makes it, built in
/// `buf` without allocating (it is sent from inside a failing malloc). The line is
/// cut to fit. Returns the frame's size.
std::size_t encode_out_of_memory_frame(char* buf, std::size_t capacity, bool heap_limit, const char* line) noexcept;

/// "handshake", "plan", ... for diagnostics.
const char* frame_type_name(FrameType type);

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// Framing of the host<->fork channel: versioned, length-prefixed frames, and an
// incremental decoder that cuts a byte stream into frames as bytes arrive.
//
// Frame = 8-byte header + payload. Header: 'C' 'M', protocol version (u8),
// frame type (u8), payload length (u32, little endian, at most kMaxFramePayload).
// A bad magic, version, type or length is a ProtocolError at once, before any
// payload is buffered, so the host's memory stays bounded whatever a fork sends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wire/bytes.hpp"

namespace cmh::forking {

// 2: the handshake carries the fork's AllocatorState; results carry CPU time and
// preemption evidence per worker and iteration.
// 3: each worker's run-queue wait; per iteration others' and the idle share of the
// process's CPUs.
// 4: the plan's -subwin target and -prec target and budget; per iteration the sub-window median and count.
// 5: the plan message's bulk warmups (-wm, -wmb) and the bulk index of iteration frames;
// per iteration its label (Google Benchmark's SetLabel).
// 6: the plan's -pin; the "pinned" frame (where the workers run).
// 7: the plan's -prec :robust; per iteration the clean sub-windows' mean, rejected windows, length, evidence.
// 8: per iteration the clean sub-windows' median and how many were kept without their run-queue wait.
inline constexpr std::uint8_t kProtocolVersion = 8;
inline constexpr std::size_t kFrameHeaderSize = 8;
inline constexpr std::uint32_t kMaxFramePayload = 16u << 20;

enum class FrameType : std::uint8_t {
  handshake = 1,          ///< fork -> host: protocol version, pid, the fork's allocator state
  plan = 2,               ///< host -> fork: the BenchmarkParams to run
  iteration_started = 3,  ///< fork -> host: kind and index of the iteration that starts
  iteration_result = 4,   ///< fork -> host: an IterationResult (warmup or measurement)
  iteration_failed = 5,   ///< fork -> host: kind, index and the Failure of that iteration
  benchmark_error = 6,    ///< fork -> host: a Failure outside any iteration
  finish = 7,             ///< fork -> host: the trial is over; the fork exits next
  out_of_memory = 8,      ///< fork -> host: the bundled allocator refused memory (-Xmx or the OS), any time
  pinned = 9,             ///< fork -> host: where -pin put the worker threads, before the first iteration
};
inline constexpr std::uint8_t kLastFrameType = 9;
inline constexpr std::uint8_t kMagic0 = 'C';
inline constexpr std::uint8_t kMagic1 = 'M';

struct Frame {
  FrameType type = FrameType::finish;
  std::string payload;
};

/// Header + payload, ready to be written to the channel.
std::string encode_frame(FrameType type, std::string_view payload);

class FrameDecoder {
 public:
  /// Appends bytes read from the channel. Throws ProtocolError as soon as a header is bad.
  void feed(std::string_view bytes);
  /// The next complete frame, or nullopt until more bytes arrive.
  std::optional<Frame> next();
  /// Bytes of an incomplete frame still buffered: non-zero at end of stream = truncated.
  std::size_t pending() const { return buffer_.size() - start_; }

 private:
  void check_header() const;
  std::string buffer_;
  std::size_t start_ = 0;  ///< consumed prefix of buffer_, compacted lazily
};

}  // namespace cmh::forking

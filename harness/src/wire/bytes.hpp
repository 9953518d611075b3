// SPDX-License-Identifier: MIT
// The byte-level primitives of the host<->fork channel: a growing little-endian
// writer and a bounds-checked reader. Every read checks what is left of the
// frame, and every length or count is checked against it before anything is
// allocated, so a hostile or truncated payload is a ProtocolError, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace cmh::forking {

/// Malformed, truncated or unexpected data on the channel; what() is one line.
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteWriter {
 public:
  void put_u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void put_bool(bool v) { put_u8(v ? 1 : 0); }
  void put_u32(std::uint32_t v);
  void put_u64(std::uint64_t v);
  void put_i32(std::int32_t v) { put_u32(static_cast<std::uint32_t>(v)); }
  void put_i64(std::int64_t v) { put_u64(static_cast<std::uint64_t>(v)); }
  void put_f64(double v);
  /// u32 length, then the bytes.
  void put_string(std::string_view s);
  /// u32 element count (of a sequence that follows).
  void put_count(std::size_t n);

  const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view data) : data_(data) {}

  std::uint8_t get_u8();
  bool get_bool();
  std::uint32_t get_u32();
  std::uint64_t get_u64();
  std::int32_t get_i32() { return static_cast<std::int32_t>(get_u32()); }
  std::int64_t get_i64() { return static_cast<std::int64_t>(get_u64()); }
  double get_f64();
  std::string get_string();
  /// A sequence's element count, checked so that `count * min_item_bytes` fits in
  /// what is left: a lying count cannot make the reader allocate.
  std::size_t get_count(std::size_t min_item_bytes);
  /// An enum stored as one byte, checked to be <= max_value.
  template <class Enum>
  Enum get_enum(Enum max_value, const char* what) {
    const std::uint8_t v = get_u8();
    if (v > static_cast<std::uint8_t>(max_value))
      throw ProtocolError(std::string("bad ") + what + " value " + std::to_string(v));
    return static_cast<Enum>(v);
  }

  std::size_t remaining() const { return data_.size() - pos_; }
  /// Throws unless every byte was consumed (trailing bytes mean a different layout).
  void expect_end() const;

 private:
  void need(std::size_t n) const;
  std::string_view data_;
  std::size_t pos_ = 0;
};

}  // namespace cmh::forking

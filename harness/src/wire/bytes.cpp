// SPDX-License-Identifier: MIT
// Little-endian encoding of the channel's scalar types, and the bounds checks
// that make decoding safe on any input (see bytes.hpp).
#include "wire/bytes.hpp"

#include <bit>
#include <cstring>

namespace cmh::forking {

void ByteWriter::put_u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) put_u8(static_cast<std::uint8_t>(v >> (8 * i)));
}

void ByteWriter::put_u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) put_u8(static_cast<std::uint8_t>(v >> (8 * i)));
}

void ByteWriter::put_f64(double v) { put_u64(std::bit_cast<std::uint64_t>(v)); }

void ByteWriter::put_string(std::string_view s) {
  put_count(s.size());
  bytes_.append(s);
}

void ByteWriter::put_count(std::size_t n) {
  if (n > UINT32_MAX) throw ProtocolError("sequence too long for a frame");
  put_u32(static_cast<std::uint32_t>(n));
}

void ByteReader::need(std::size_t n) const {
  if (remaining() < n) throw ProtocolError("payload truncated");
}

std::uint8_t ByteReader::get_u8() {
  need(1);
  return static_cast<std::uint8_t>(data_[pos_++]);
}

bool ByteReader::get_bool() {
  const std::uint8_t v = get_u8();
  if (v > 1) throw ProtocolError("bad boolean value " + std::to_string(v));
  return v == 1;
}

std::uint32_t ByteReader::get_u32() {
  need(4);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<std::uint8_t>(data_[pos_++])} << (8 * i);
  return v;
}

std::uint64_t ByteReader::get_u64() {
  need(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<std::uint8_t>(data_[pos_++])} << (8 * i);
  return v;
}

double ByteReader::get_f64() { return std::bit_cast<double>(get_u64()); }

std::string ByteReader::get_string() {
  const std::size_t n = get_count(1);
  std::string s(data_.substr(pos_, n));
  pos_ += n;
  return s;
}

std::size_t ByteReader::get_count(std::size_t min_item_bytes) {
  const std::uint32_t n = get_u32();
  if (min_item_bytes != 0 && n > remaining() / min_item_bytes)
    throw ProtocolError("sequence of " + std::to_string(n) + " items does not fit in the frame");
  return n;
}

void ByteReader::expect_end() const {
  if (remaining() != 0) throw ProtocolError(std::to_string(remaining()) + " unexpected trailing bytes");
}

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// TextBuffer: builds short messages, the options string and the stats JSON in caller
// storage, without printf or allocation (safe inside malloc). Output is truncated at
// the capacity but length() keeps counting, like snprintf.
#pragma once

#include <cstring>

#include "bits.hpp"
#include "config.hpp"

namespace cmh::allocator {

class TextBuffer {
 public:
  TextBuffer(char* data, size_t capacity) : data_(data), capacity_(capacity) {
    if (capacity_ > 0) data_[0] = '\0';
  }

  TextBuffer& add(char c) {
    if (length_ + 1 < capacity_) {
      data_[length_] = c;
      data_[length_ + 1] = '\0';
    }
    ++length_;
    return *this;
  }
  TextBuffer& add(const char* s) {
    while (*s) add(*s++);
    return *this;
  }
  TextBuffer& add(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) add(s[i]);
    return *this;
  }
  TextBuffer& add_uint(uint64_t v) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (n) add(digits[--n]);
    return *this;
  }
  TextBuffer& add_int(int64_t v) {
    if (v < 0) {
      add('-');
      return add_uint(static_cast<uint64_t>(-(v + 1)) + 1);
    }
    return add_uint(static_cast<uint64_t>(v));
  }
  TextBuffer& add_hex(uintptr_t v) {
    add("0x");
    char digits[20];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v);
    while (n) add(digits[--n]);
    return *this;
  }
  /// A size in the JVM's spelling: the largest of g/m/k that divides it exactly.
  TextBuffer& add_size(uint64_t bytes) {
    static constexpr struct {
      uint64_t unit;
      char suffix;
    } kUnits[] = {{uint64_t{1} << 30, 'g'}, {uint64_t{1} << 20, 'm'}, {uint64_t{1} << 10, 'k'}};
    for (const auto& u : kUnits) {
      if (bytes != 0 && bytes % u.unit == 0) return add_uint(bytes / u.unit).add(u.suffix);
    }
    return add_uint(bytes);
  }
  /// A node mask in list syntax ("0-1,3"), or "none".
  TextBuffer& add_mask(NodeMask mask) {
    if (mask == 0) return add("none");
    bool first = true;
    for (int n = 0; n < 64; ++n) {
      if (!mask_has(mask, n)) continue;
      int last = n;
      while (last + 1 < 64 && mask_has(mask, last + 1)) ++last;
      if (!first) add(',');
      first = false;
      add_uint(static_cast<uint64_t>(n));
      if (last > n) add('-').add_uint(static_cast<uint64_t>(last));
      n = last;
    }
    return *this;
  }

  const char* c_str() const { return data_; }
  size_t length() const { return length_; }

 private:
  char* data_;
  size_t capacity_;
  size_t length_ = 0;
};

}  // namespace cmh::allocator

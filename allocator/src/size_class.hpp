// SPDX-License-Identifier: MIT
// Size classes: 8 B (16 B in the checked build, config.hpp), then 16-byte steps up to
// 128 B, then four classes per power of two up to 64 KiB (at most 25% internal waste,
// 12.5% on average). Classes up to 8 KiB live in 1-slice (64 KiB) pages, the rest in
// 8-slice (512 KiB) pages. Every multiple m*A (A >= 16) of a power of two A is either a
// class itself (m < 4) or has a class step >= A, which is what lets aligned allocation
// pick a class whose blocks are all A-aligned.
#pragma once

#include "config.hpp"

namespace cmh::allocator {

constexpr size_t class_of_size(size_t size) {
  if (size <= 8) return 0;
  if (size <= 128) return (size + 15) / 16;
  const unsigned p = 63u - static_cast<unsigned>(__builtin_clzll(size - 1));  // size in (2^p, 2^(p+1)]
  const size_t sub = ((size - 1) >> (p - 2)) & 3;
  return 9 + (p - 7) * 4 + sub;
}

constexpr size_t class_size(size_t c) {
  if (c == 0) return kSmallestBlock;
  if (c < 9) return c * 16;
  const size_t group = (c - 9) / 4, sub = (c - 9) % 4;
  const size_t base = size_t{128} << group;
  return base + (base / 4) * (sub + 1);
}

constexpr size_t class_page_slices(size_t c) {
  return class_size(c) <= kSmallMax ? 1 : kMediumPageSlices;
}

static_assert(class_of_size(kMediumMax) == kClassCount - 1);
static_assert(class_size(kClassCount - 1) == kMediumMax);
static_assert(class_size(class_of_size(129)) == 160 && class_size(class_of_size(1024)) == 1024);
static_assert(class_size(class_of_size(kSmallMax)) == kSmallMax);
static_assert(class_of_size(8) == 0 && class_size(class_of_size(9)) == 16 && class_size(class_of_size(17)) == 32);

/// Direct slot (size+7)/8 -> class, for sizes up to kDirectMax.
struct DirectClassTable {
  uint8_t class_of[kDirectSlots];
  constexpr DirectClassTable() : class_of() {
    for (size_t slot = 0; slot < kDirectSlots; ++slot) class_of[slot] = static_cast<uint8_t>(class_of_size(slot * kDirectGrain));
  }
};
inline constexpr DirectClassTable kDirectClasses{};

}  // namespace cmh::allocator

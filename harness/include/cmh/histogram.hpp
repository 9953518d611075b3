// SPDX-License-Identifier: MIT
// SampleHistogram: a log-linear (HDR-style) histogram of non-negative integer
// values (nanoseconds per op in sample-time mode), ten significant bits.
//
// Values below 1024 are counted exactly; above that each power-of-two range is
// split into 512 equal sub-buckets, so a bucket is at most 1/512 of its value
// wide (about three significant digits, as JMH's SampleBuffer). All storage is
// allocated by the constructor: record() never allocates, so it may run inside
// a measured iteration.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cmh {

class SampleHistogram {
 public:
  static constexpr int kPrecisionBits = 10;
  static constexpr std::size_t kLinear = std::size_t{1} << kPrecisionBits;  // 1024
  static constexpr std::size_t kHalf = kLinear / 2;                         // 512
  static constexpr int kMaxShift = 64 - kPrecisionBits;                     // 54
  static constexpr std::size_t kBuckets = kLinear + kMaxShift * kHalf;

  SampleHistogram() : counts_(kBuckets, 0) {}

  /// Adds `count` observations of `value` (negative values count as 0).
  void record(std::int64_t value, std::uint64_t count = 1) noexcept {
    counts_[index_of(value < 0 ? 0 : static_cast<std::uint64_t>(value))] += count;
    total_ += count;
  }

  void merge(const SampleHistogram& other) noexcept {
    for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
    total_ += other.total_;
  }

  /// Halves every count (rounding down), as JMH's SampleBuffer.half() when sampling adapts.
  void halve() noexcept {
    total_ = 0;
    for (auto& c : counts_) {
      c /= 2;
      total_ += c;
    }
  }

  void clear() noexcept {
    for (auto& c : counts_) c = 0;
    total_ = 0;
  }

  std::uint64_t total_count() const noexcept { return total_; }
  std::uint64_t count_at(std::size_t bucket) const noexcept { return counts_[bucket]; }

  static std::size_t index_of(std::uint64_t v) noexcept {
    if (v < kLinear) return static_cast<std::size_t>(v);
    const int msb = 63 - std::countl_zero(v);     // >= kPrecisionBits
    const int shift = msb - (kPrecisionBits - 1);  // (v >> shift) in [512, 1024)
    const std::size_t sub = static_cast<std::size_t>(v >> shift) - kHalf;
    return kLinear + static_cast<std::size_t>(shift - 1) * kHalf + sub;
  }
  /// Smallest value counted in `bucket`.
  static std::uint64_t lower_bound(std::size_t bucket) noexcept {
    if (bucket < kLinear) return bucket;
    const std::size_t k = bucket - kLinear;
    const int shift = static_cast<int>(k / kHalf) + 1;
    return static_cast<std::uint64_t>(k % kHalf + kHalf) << shift;
  }
  /// One past the largest value counted in `bucket`.
  static std::uint64_t upper_bound(std::size_t bucket) noexcept {
    if (bucket < kLinear) return bucket + 1;
    const std::size_t k = bucket - kLinear;
    const int shift = static_cast<int>(k / kHalf) + 1;
    return static_cast<std::uint64_t>(k % kHalf + kHalf + 1) << shift;
  }
  /// The value that stands for every observation in `bucket` (exact below 1024, else the midpoint).
  static double representative(std::size_t bucket) noexcept {
    if (bucket < kLinear) return static_cast<double>(bucket);
    return (static_cast<double>(lower_bound(bucket)) + static_cast<double>(upper_bound(bucket) - 1)) / 2.0;
  }

  /// Calls f(representative_value, count) for each non-empty bucket, ascending.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < kBuckets; ++i)
      if (counts_[i] != 0) f(representative(i), counts_[i]);
  }

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
};

}  // namespace cmh

// SPDX-License-Identifier: MIT
// decode_sample(): one PERF_RECORD_SAMPLE, field by field (see sample_decoder.hpp).
#include "sampling/sample_decoder.hpp"

#include <linux/perf_event.h>

#include <cstring>

namespace cmh::profilers::sampling {

bool decode_sample(const std::byte* record, std::size_t size, std::uint64_t sample_type, std::uint64_t regs_mask,
                   DecodedSample& out) {
  perf_event_header header;
  if (size < sizeof header) return false;
  std::memcpy(&header, record, sizeof header);
  const std::byte* p = record + sizeof header;
  const std::byte* end = record + size;
  auto word = [&](std::uint64_t& v) {
    if (p + 8 > end) return false;
    std::memcpy(&v, p, 8);
    p += 8;
    return true;
  };
  std::uint64_t v = 0;
  const std::uint16_t mode = header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
  out.kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
  if (sample_type & PERF_SAMPLE_IDENTIFIER) {
    if (!word(v)) return false;
    out.event = static_cast<int>(v);  // the id: for_each_sample maps it to the event index
  }
  if (sample_type & PERF_SAMPLE_IP) {
    if (!word(out.ip)) return false;
  }
  if (sample_type & PERF_SAMPLE_TID) {
    if (!word(v)) return false;
    out.tid = static_cast<std::uint32_t>(v >> 32);
  }
  if (sample_type & PERF_SAMPLE_PERIOD) {
    if (!word(out.period)) return false;
  }
  if (sample_type & PERF_SAMPLE_CALLCHAIN) {
    std::uint64_t n = 0;
    if (!word(n) || n > static_cast<std::uint64_t>(end - p) / 8) return false;
    out.callchain = {reinterpret_cast<const std::uint64_t*>(p), static_cast<std::size_t>(n)};
    p += n * 8;
  }
  if (sample_type & PERF_SAMPLE_REGS_USER) {
    std::uint64_t abi = 0;
    if (!word(abi)) return false;
    if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
      const auto n = static_cast<std::size_t>(__builtin_popcountll(regs_mask));
      if (static_cast<std::size_t>(end - p) < n * 8) return false;
      out.regs = {reinterpret_cast<const std::uint64_t*>(p), n};
      p += n * 8;
    }
  }
  if (sample_type & PERF_SAMPLE_STACK_USER) {
    std::uint64_t bytes = 0;
    if (!word(bytes)) return false;
    if (bytes > 0) {
      if (bytes > static_cast<std::uint64_t>(end - p)) return false;
      const std::byte* data = p;
      p += bytes;
      std::uint64_t dynamic = 0;
      if (!word(dynamic)) return false;
      out.stack = {data, static_cast<std::size_t>(dynamic < bytes ? dynamic : bytes)};
    }
  }
  return true;
}

}  // namespace cmh::profilers::sampling

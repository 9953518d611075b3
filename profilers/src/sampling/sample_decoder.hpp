// SPDX-License-Identifier: MIT
// Decoding the PERF_RECORD_SAMPLE records a WindowSampler gathered: the fields are
// laid out in the kernel's fixed order for the sample_type bits the sampler sets.
#pragma once

#include "sampling/sampler.hpp"

#include <cstdint>
#include <span>

namespace cmh::profilers::sampling {

struct DecodedSample {
  std::uint32_t thread = 0;  ///< the ring (thread) index in the sampler
  int event = 0;             ///< index into SamplerConfig::events; -1 if unknown
  std::uint32_t tid = 0;
  std::uint64_t ip = 0;
  std::uint64_t period = 0;
  bool kernel = false;  ///< the ip is in the kernel
  /// PERF_SAMPLE_CALLCHAIN: the ips as the kernel wrote them, context markers included.
  std::span<const std::uint64_t> callchain;
  /// PERF_SAMPLE_REGS_USER: the registers of the mask, in bit order; empty if none.
  std::span<const std::uint64_t> regs;
  /// PERF_SAMPLE_STACK_USER: the bytes copied from the user stack at regs' SP.
  std::span<const std::byte> stack;
};

/// Calls `visit(const DecodedSample&)` for every sample the sampler holds. Records are copied
/// into 8-aligned slots (sampler.cpp), so the fields are read in place.
template <class Visit>
void for_each_sample(const WindowSampler& sampler, Visit&& visit);

/// Implementation detail, exposed for the template: decodes one record; false if malformed.
bool decode_sample(const std::byte* record, std::size_t size, std::uint64_t sample_type, std::uint64_t regs_mask,
                   DecodedSample& out);

template <class Visit>
void for_each_sample(const WindowSampler& sampler, Visit&& visit) {
  const std::byte* bytes = sampler.records().data();
  std::size_t at = 0;
  const std::size_t end = sampler.records().size();
  while (at + 8 <= end) {
    std::uint32_t prefix[2];
    __builtin_memcpy(prefix, bytes + at, sizeof prefix);
    at += sizeof prefix;
    if (prefix[1] == 0 || at + prefix[1] > end) break;
    DecodedSample s;
    s.thread = prefix[0];
    if (decode_sample(bytes + at, prefix[1], sampler.sample_type(), sampler.regs_mask(), s)) {
      s.event = sampler.event_of_id(static_cast<std::uint64_t>(s.event));
      visit(static_cast<const DecodedSample&>(s));
    }
    at += (prefix[1] + 7) & ~std::uint32_t{7};
  }
}

}  // namespace cmh::profilers::sampling

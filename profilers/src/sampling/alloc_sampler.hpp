// SPDX-License-Identifier: MIT
// AllocationSampler: -prof flame:alloc's source of stacks. Instead of a perf event, the
// bundled allocator's sampling hook (cmh_alloc_set_sample_hook: called from its slow
// path about every `every` bytes a thread allocates) captures the allocating call stack
// with the unwinder every C++ program links (_Unwind_Backtrace, libgcc: .eh_frame, no
// frame pointers needed, no allocation) into memory mapped here, weighted by the exact
// bytes the thread allocated since its previous sample. Switched on and off around the
// measurement iterations like WindowSampler. After the trial the stacks become a
// ForkProfile whose "period" is bytes, scaled so that they add up to the exact bytes the
// allocator counted in the windows (its process-wide counter).
#pragma once

#include "sampling/profile.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace cmh::profilers::sampling {

class AllocationSampler {
 public:
  explicit AllocationSampler(std::uint64_t every_bytes);
  ~AllocationSampler();
  AllocationSampler(const AllocationSampler&) = delete;
  AllocationSampler& operator=(const AllocationSampler&) = delete;

  /// nullopt when allocation sampling works in this process, else why not (one line).
  static std::optional<std::string> unavailable_reason();

  void start();
  void stop();
  /// Adds the stacks to `fork` (events[0], period = bytes) and its modules to `profile`.
  void add_to(Profile& profile, ForkProfile& fork) const;

  /// Implementation detail, public for the allocator's C hook.
  static void on_sample(std::size_t size, std::uint64_t bytes, void* self);

 private:
  std::uint64_t every_;
  std::byte* arena_ = nullptr;
  std::size_t capacity_ = 0;
  std::atomic<std::size_t> used_{0};
  std::atomic<int> inside_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::uint64_t exact_bytes_ = 0;     ///< the allocator's count over the windows
  std::uint64_t window_start_bytes_ = 0;
  bool running_ = false;
};

}  // namespace cmh::profilers::sampling

// SPDX-License-Identifier: MIT
// DwarfUnwinder: call stacks from a sample's user registers and its copy of the user
// stack, walked with the objects' call frame information (.eh_frame / .debug_frame) by
// elfutils libdwfl, as perf does for --call-graph dwarf. It runs in the sampled process
// itself, after the window, so the objects it reads are the ones that were executing.
// Memory is read from the stack copy only: anything else would be today's memory, not
// the sample's, and the walk stops there (the stack is then counted as truncated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

struct Dwfl;

namespace cmh::profilers::sampling {

class DwarfUnwinder {
 public:
  DwarfUnwinder();
  ~DwarfUnwinder();
  DwarfUnwinder(const DwarfUnwinder&) = delete;
  DwarfUnwinder& operator=(const DwarfUnwinder&) = delete;

  /// nullopt when ready, else why unwinding cannot work here.
  const std::optional<std::string>& problem() const { return problem_; }

  /// The frames' pcs, innermost first (a caller's pc is its return address - 1, inside
  /// the call). true when the walk reached the outermost frame, false when it stopped
  /// early (the pcs found until then are kept).
  bool unwind(std::uint32_t tid, std::span<const std::uint64_t> regs, std::span<const std::byte> stack,
              std::vector<std::uint64_t>& pcs, std::size_t max_frames);

  /// Implementation detail, public for libdwfl's C callbacks.
  struct Context {
    std::span<const std::uint64_t> regs;
    std::span<const std::byte> stack;
    std::uint64_t stack_start = 0;
    std::vector<std::uint64_t>* pcs = nullptr;
    std::size_t max_frames = 0;
  };

 private:
  Dwfl* dwfl_ = nullptr;
  Context context_;
  std::optional<std::string> problem_;
};

}  // namespace cmh::profilers::sampling

// SPDX-License-Identifier: MIT
// disassemble(): x86-64 machine code to instructions with Capstone, each with what the
// listing needs: its text, whether it jumps (and where), so that backward branches
// inside a function can be drawn as loops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cmh::profilers::analysis {

struct Instruction {
  std::uint64_t address = 0;
  std::uint8_t size = 0;
  std::string text;  ///< "div    %rcx" (AT&T) or "div rcx" (Intel)
  bool jump = false;  ///< a conditional or unconditional jump (not a call or return)
  std::optional<std::uint64_t> target;  ///< a direct jump's or call's destination
};

/// A loop: a backward jump at `end_jump` to `start` within one function.
struct Loop {
  std::uint64_t start = 0;
  std::uint64_t end_jump = 0;  ///< the address of the backward jump
  std::uint64_t end = 0;       ///< one past the jump
};

/// Decodes `code` as loaded at `address`; stops at the first byte sequence Capstone
/// cannot decode. Empty when Capstone is unavailable for this machine.
std::vector<Instruction> disassemble(std::span<const std::byte> code, std::uint64_t address, bool intel_syntax);

/// The loops of `instructions` (backward jumps whose target lies in them), outermost first.
std::vector<Loop> find_loops(const std::vector<Instruction>& instructions);

/// "Capstone 4.0" or why it cannot disassemble here.
std::string disassembler_version();

}  // namespace cmh::profilers::analysis

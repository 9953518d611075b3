// SPDX-License-Identifier: MIT
// disassemble() with Capstone (libcapstone), find_loops() on its result.
#include "analysis/disassembler.hpp"

#include <capstone/capstone.h>

#include <algorithm>

namespace cmh::profilers::analysis {

std::vector<Instruction> disassemble(std::span<const std::byte> code, std::uint64_t address, bool intel_syntax) {
  std::vector<Instruction> out;
#if defined(__x86_64__)
  csh handle = 0;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) return out;
  cs_option(handle, CS_OPT_SYNTAX, intel_syntax ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
  cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  cs_insn* insn = cs_malloc(handle);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(code.data());
  std::size_t left = code.size();
  std::uint64_t at = address;
  while (left > 0 && cs_disasm_iter(handle, &bytes, &left, &at, insn)) {
    Instruction i;
    i.address = insn->address;
    i.size = static_cast<std::uint8_t>(insn->size);
    i.text = insn->mnemonic;
    if (insn->op_str[0] != '\0') {
      i.text.resize(std::max<std::size_t>(i.text.size() + 1, 7), ' ');
      i.text += insn->op_str;
    }
    const cs_detail* d = insn->detail;
    bool call = false;
    for (std::uint8_t g = 0; d != nullptr && g < d->groups_count; ++g) {
      if (d->groups[g] == CS_GRP_JUMP) i.jump = true;
      if (d->groups[g] == CS_GRP_CALL) call = true;
    }
    if ((i.jump || call) && d != nullptr && d->x86.op_count == 1 && d->x86.operands[0].type == X86_OP_IMM)
      i.target = static_cast<std::uint64_t>(d->x86.operands[0].imm);
    out.push_back(std::move(i));
  }
  cs_free(insn, 1);
  cs_close(&handle);
#else
  (void)code;
  (void)address;
  (void)intel_syntax;
#endif
  return out;
}

std::vector<Loop> find_loops(const std::vector<Instruction>& instructions) {
  std::vector<Loop> loops;
  if (instructions.empty()) return loops;
  const std::uint64_t first = instructions.front().address;
  for (const auto& i : instructions) {
    if (!i.jump || !i.target || *i.target > i.address || *i.target < first) continue;
    loops.push_back({*i.target, i.address, i.address + i.size});
  }
  // Outermost first: earlier start, then later end.
  std::sort(loops.begin(), loops.end(), [](const Loop& a, const Loop& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  return loops;
}

std::string disassembler_version() {
  int major = 0, minor = 0;
  cs_version(&major, &minor);
  return "Capstone " + std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace cmh::profilers::analysis

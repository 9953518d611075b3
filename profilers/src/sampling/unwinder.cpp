// SPDX-License-Identifier: MIT
// DwarfUnwinder: libdwfl's frame unwinder fed with a sample's registers and stack copy.
#include "sampling/unwinder.hpp"

#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cstring>

namespace cmh::profilers::sampling {
namespace {

using Context = DwarfUnwinder::Context;

// The sample's registers are in perf's x86-64 order for the mask sampler.cpp asks for:
// AX BX CX DX SI DI BP SP IP R8..R15. DWARF numbers them rax rdx rcx rbx rsi rdi rbp
// rsp r8..r15 rip (0..16).
constexpr int kRegCount = 17;
constexpr int kDwarfFromPerf[kRegCount] = {0, 3, 2, 1, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 8};
constexpr int kPerfSp = 7;

pid_t next_thread(Dwfl*, void*, void**) { return 0; }  // threads are asked for by tid only

bool get_thread(Dwfl*, pid_t, void* dwfl_arg, void** thread_arg) {
  *thread_arg = dwfl_arg;
  return true;
}

bool memory_read(Dwfl*, Dwarf_Addr addr, Dwarf_Word* result, void* arg) {
  const auto& c = *static_cast<const Context*>(arg);
  if (addr < c.stack_start || addr + sizeof(Dwarf_Word) > c.stack_start + c.stack.size()) return false;
  std::memcpy(result, c.stack.data() + (addr - c.stack_start), sizeof(Dwarf_Word));
  return true;
}

bool set_initial_registers(Dwfl_Thread* thread, void* arg) {
  const auto& c = *static_cast<const Context*>(arg);
  if (c.regs.size() < kRegCount) return false;
  Dwarf_Word dwarf[kRegCount];
  for (int i = 0; i < kRegCount; ++i) dwarf[i] = c.regs[static_cast<std::size_t>(kDwarfFromPerf[i])];
  return dwfl_thread_state_registers(thread, 0, kRegCount, dwarf);
}

int on_frame(Dwfl_Frame* frame, void* arg) {
  auto& c = *static_cast<Context*>(arg);
  Dwarf_Addr pc = 0;
  bool activation = false;
  if (!dwfl_frame_pc(frame, &pc, &activation)) return DWARF_CB_ABORT;
  c.pcs->push_back(activation ? pc : pc - 1);
  return c.pcs->size() >= c.max_frames ? DWARF_CB_ABORT : DWARF_CB_OK;
}

const Dwfl_Thread_Callbacks kThreadCallbacks = {
    next_thread, get_thread, memory_read, set_initial_registers, nullptr, nullptr,
};

char* debuginfo_path = nullptr;
const Dwfl_Callbacks kProcCallbacks = {
    dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, &debuginfo_path,
};

}  // namespace

DwarfUnwinder::DwarfUnwinder() {
#if !defined(__x86_64__)
  problem_ = "DWARF unwinding is implemented for x86-64 only";
  return;
#endif
  dwfl_ = dwfl_begin(&kProcCallbacks);
  if (dwfl_ == nullptr) {
    problem_ = std::string("libdwfl: ") + dwfl_errmsg(-1);
    return;
  }
  dwfl_report_begin(dwfl_);
  const int reported = dwfl_linux_proc_report(dwfl_, ::getpid());
  dwfl_report_end(dwfl_, nullptr, nullptr);
  if (reported != 0 || !dwfl_attach_state(dwfl_, nullptr, ::getpid(), &kThreadCallbacks, &context_))
    problem_ = std::string("libdwfl cannot unwind this process: ") + dwfl_errmsg(-1);
}

DwarfUnwinder::~DwarfUnwinder() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

bool DwarfUnwinder::unwind(std::uint32_t tid, std::span<const std::uint64_t> regs, std::span<const std::byte> stack,
                           std::vector<std::uint64_t>& pcs, std::size_t max_frames) {
  if (problem_ || regs.size() < kRegCount) return false;
  context_.regs = regs;
  context_.stack = stack;
  context_.stack_start = regs[kPerfSp];
  context_.pcs = &pcs;
  context_.max_frames = max_frames;
  const int status = dwfl_getthread_frames(dwfl_, static_cast<pid_t>(tid == 0 ? 1 : tid), on_frame, &context_);
  // 0: the walk ended at a frame without a caller (the outermost); anything else stopped it.
  return status == 0;
}

}  // namespace cmh::profilers::sampling

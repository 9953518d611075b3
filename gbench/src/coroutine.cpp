// SPDX-License-Identifier: MIT
#include "coroutine.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <new>
#include <system_error>

namespace benchmark::internal {

Coroutine::Coroutine(std::size_t stack_bytes) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  size_ = (stack_bytes + page - 1) / page * page + page;
  stack_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                  -1, 0);
  if (stack_ == MAP_FAILED) {
    stack_ = nullptr;
    throw std::system_error(errno, std::generic_category(), "cannot map a stack for the benchmark function");
  }
  ::mprotect(stack_, page, PROT_NONE);  // stacks grow down: the lowest page is the guard
}

Coroutine::~Coroutine() {
  if (stack_ != nullptr) ::munmap(stack_, size_);
}

void Coroutine::trampoline(unsigned hi, unsigned lo) {
  auto* self = reinterpret_cast<Coroutine*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
  self->fn_(self->arg_);
  self->finished_ = true;
  swapcontext(&self->callee_, &self->caller_);  // never resumed again
}

void Coroutine::start(void (*fn)(void*), void* arg) {
  fn_ = fn;
  arg_ = arg;
  finished_ = false;
  getcontext(&callee_);
  callee_.uc_stack.ss_sp = stack_;
  callee_.uc_stack.ss_size = size_;
  callee_.uc_link = nullptr;
  const auto p = reinterpret_cast<std::uintptr_t>(this);
  makecontext(&callee_, reinterpret_cast<void (*)()>(&trampoline), 2, static_cast<unsigned>(p >> 32),
              static_cast<unsigned>(p & 0xffffffffu));
}

void Coroutine::resume() {
  if (!finished_) swapcontext(&caller_, &callee_);
}

void Coroutine::yield() { swapcontext(&callee_, &caller_); }

}  // namespace benchmark::internal

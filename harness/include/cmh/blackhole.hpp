// SPDX-License-Identifier: MIT
// cmh::Blackhole: keeps the compiler from deleting work whose result is unused
// (JMH's Blackhole, compiler mode). consume() is an empty inline-asm statement
// that claims to read the value and all of memory: the value must be computed
// and every store it depends on performed, yet no instruction is emitted.
#pragma once

#include <cstdint>
#include <type_traits>

namespace cmh {

class Blackhole {
 public:
  /// Makes `value` look used. Small trivially copyable values may stay in a
  /// register; anything else is materialised in memory. The "memory" clobber
  /// also keeps loads from being hoisted out of the measurement loop.
  template <class T>
  [[gnu::always_inline]] static inline void consume(const T& value) noexcept {
    if constexpr (kFitsRegister<T>) {
#if defined(__clang__)
      asm volatile("" : : "r"(value) : "memory");  // clang would always pick "m": a store
#else
      asm volatile("" : : "r,m"(value) : "memory");
#endif
    } else {
      asm volatile("" : : "m"(value) : "memory");
    }
  }

  /// Non-const lvalues: additionally claims the value may have changed, so the
  /// compiler cannot fold later uses of it into constants either.
  template <class T>
  [[gnu::always_inline]] static inline void consume(T& value) noexcept {
    if constexpr (kFitsRegister<T>) {
#if defined(__clang__)
      asm volatile("" : "+r"(value) : : "memory");
#else
      asm volatile("" : "+m,r"(value) : : "memory");
#endif
    } else {
      asm volatile("" : "+m"(value) : : "memory");
    }
  }

  /// Burns CPU time proportional to `tokens` without touching memory (JMH's
  /// consumeCPU): a dependent chain of one multiply and one add per token,
  /// about 4 cycles per token (0.9-1.5 ns on the EPYC development VMs),
  /// plus a call. Out of line so that the cost does not depend on the caller.
  static void consume_cpu(std::uint64_t tokens) noexcept;

 private:
  template <class T>
  static constexpr bool kFitsRegister =
      std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(void*);
};

}  // namespace cmh

// SPDX-License-Identifier: MIT
// cmh-icount-bench: benchmarks with known instruction counts, for -prof icount's tests.
//  - Icount.chain: a 64-step dependent chain of single add instructions in a noinline
//    function (64 instructions, plus the call, its return and moving the value in and
//    out); with extra=1 the body also calls heavy(), a few hundred more instructions.
//  - Icount.avx512: under Valgrind only, one AVX-512 instruction, which Valgrind 3.19
//    cannot run (natively it is never reached): the fork under Callgrind must fail
//    with Valgrind's reason.
#include <cmh/cmh.hpp>

#include <valgrind/valgrind.h>

#include <cstdint>

using namespace std::chrono_literals;

namespace {

#if defined(__x86_64__)
#define ICOUNT_STEP "add $1, %0\n\t"
#elif defined(__aarch64__)
#define ICOUNT_STEP "add %0, %0, #1\n\t"
#endif

[[gnu::noinline]] std::uint64_t chain(std::uint64_t x) {
#if defined(ICOUNT_STEP)
#define ICOUNT_STEP4 ICOUNT_STEP ICOUNT_STEP ICOUNT_STEP ICOUNT_STEP
#define ICOUNT_STEP16 ICOUNT_STEP4 ICOUNT_STEP4 ICOUNT_STEP4 ICOUNT_STEP4
  asm volatile(ICOUNT_STEP16 ICOUNT_STEP16 ICOUNT_STEP16 ICOUNT_STEP16 : "+r"(x));
#else  // elsewhere the count per step is the compiler's: the tests check the range on x86-64 and arm64 only
  for (int i = 0; i < 64; ++i) {
    x += 1;
    asm volatile("" : "+r"(x));
  }
#endif
  return x;
}

[[gnu::noinline]] std::uint64_t heavy(std::uint64_t x) {
  for (int i = 0; i < 100; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x));
  }
  return x;
}

[[gnu::noinline]] void avx512_under_valgrind() {
#if defined(__x86_64__)
  // vpaddd zmm0, zmm0, zmm0
  if (RUNNING_ON_VALGRIND) asm volatile(".byte 0x62, 0xf1, 0x7d, 0x48, 0xfe, 0xc0" ::: "xmm0");
#endif
}

}  // namespace

struct ChainState : cmh::ThreadState {
  int extra = 0;
  std::uint64_t x = 1;
  static constexpr auto params = cmh::params(cmh::param("extra", &ChainState::extra, "0"));
};

CMH_OPTIONS(Icount, cmh::mode::average_time, cmh::output_unit{1ns});

CMH_BENCHMARK(Icount, chain, ChainState& s) {
  s.x = chain(s.x);
  if (s.extra != 0) s.x = heavy(s.x);
}

CMH_BENCHMARK(Icount, avx512) { avx512_under_valgrind(); }

// SPDX-License-Identifier: MIT
// Benchmarks whose hot code is known, for the -prof perfasm and -prof flame tests:
//  - Sampled.division: a chain of 64-bit divisions in a noinline function, each one
//    depending on the last, so the div instructions carry nearly all the time;
//  - Sampled.dropped: the same division on values nobody uses: the body compiles to
//    nothing and only the harness's loop is left (perfasm must warn);
//  - Sampled.extra: Sampled.division plus one more noinline call per op (a
//    multiplication chain), whose cost cmh-compare must name as the top change
//    (compiled without it when CMH_SAMPLED_NO_EXTRA is defined, as the "before" run);
//  - Sampled.allocate: exactly 1,000,016 bytes in one allocation per op (the -rf html test
//    reads that number back in full).
#include <cmh/cmh.hpp>

#include <cstdint>
#include <memory>

using namespace std::chrono_literals;

CMH_OPTIONS(Sampled, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{1, 100ms},
            cmh::measurement{3, 200ms}, cmh::fork{1});

namespace {

struct Operands : cmh::ThreadState {
  std::uint64_t dividend = 0xFFFF'FFFF'FFFF'FFC5ull, divisor = 7;
};

}  // namespace

/// One step of the chain, always inlined: perfasm shows it in the division's inline chain.
[[gnu::always_inline]] inline std::uint64_t divide_step(std::uint64_t x, std::uint64_t d) {
  return x / d + 0x9E37'79B9'7F4A'7C15ull;
}

/// A dependent chain of divisions: the next divisor comes from the last quotient.
[[gnu::noinline]] std::uint64_t division_chain(std::uint64_t x, std::uint64_t d) {
  for (int i = 0; i < 64; ++i) {
    x = divide_step(x, d);
    d = (x & 0xFF) | 3;
  }
  return x;
}

/// The extra call of Sampled.extra: a dependent chain of multiplications costing about
/// twice the divisions, so that it stands out of a loaded machine's run-to-run drift.
[[gnu::noinline]] std::uint64_t multiply_chain(std::uint64_t x) {
  for (int i = 0; i < 512; ++i) x = x * 0x9E37'79B9'7F4A'7C15ull + static_cast<std::uint64_t>(i);
  return x;
}

CMH_BENCHMARK(Sampled, division, Operands& o) { return division_chain(o.dividend, o.divisor); }

CMH_BENCHMARK(Sampled, dropped, Operands& o) {
  [[maybe_unused]] const std::uint64_t quotient = o.dividend / o.divisor;  // nobody uses it: deleted
}

CMH_BENCHMARK(Sampled, extra, Operands& o) {
#if defined(CMH_SAMPLED_NO_EXTRA)
  return division_chain(o.dividend, o.divisor);
#else
  return division_chain(o.dividend, o.divisor) + multiply_chain(o.dividend);
#endif
}

CMH_BENCHMARK(Sampled, allocate, cmh::Blackhole& bh) {
  auto block = std::make_unique<char[]>(1'000'016);
  bh.consume(block.get());
}

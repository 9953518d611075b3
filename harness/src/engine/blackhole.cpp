// SPDX-License-Identifier: MIT
// Blackhole::consume_cpu: JMH's consumeCPU, a busy loop whose cost is linear in
// its argument and which the compiler cannot shorten.
#include <cmh/blackhole.hpp>

#include <cstdint>

namespace cmh {

void Blackhole::consume_cpu(std::uint64_t tokens) noexcept {
  // One multiply-add per token on a loop-carried value: the chain's latency
  // (about 4 cycles) sets the cost. The empty asm hides the value from the
  // optimiser at every step, so the loop can be neither vectorised nor folded.
  std::uint64_t x = tokens ^ 0x9E3779B97F4A7C15ull;
  for (std::uint64_t t = tokens; t > 0; --t) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x));
  }
  consume(x);
}

}  // namespace cmh

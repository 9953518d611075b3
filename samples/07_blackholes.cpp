// SPDX-License-Identifier: MIT
// Sample 07, Blackholes: two results, one return value.
//
// A body can return one value. When it computes two, returning only the second lets
// the compiler delete the first (`second_only` costs one division, not two). Either
// combine them into the returned value (`combined`: cheap, but the combining is
// measured too and the compiler may merge or reorder the work), or hand each to a
// cmh::Blackhole (`blackhole`). Blackhole::consume is an empty asm statement that
// pretends to read its argument: it emits no instruction, yet the value must exist.
// Take cmh::Blackhole& as an argument, or call the static cmh::Blackhole::consume.
//
//   cmh-samples Blackholes
#include <cmh/cmh.hpp>

#include <cstdint>

using namespace std::chrono_literals;

CMH_OPTIONS(Blackholes, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Operands : cmh::ThreadState {
  std::uint64_t a = 1'000'000'007, b = 998'244'353, divisor = 13;
};
}  // namespace

CMH_BENCHMARK(Blackholes, one_division, Operands& o) { return o.a / o.divisor; }

CMH_BENCHMARK(Blackholes, second_only, Operands& o) {
  [[maybe_unused]] const std::uint64_t first = o.a / o.divisor;  // lost
  return o.b / o.divisor;
}

CMH_BENCHMARK(Blackholes, combined, Operands& o) { return o.a / o.divisor + o.b / o.divisor; }

CMH_BENCHMARK(Blackholes, blackhole, Operands& o, cmh::Blackhole& bh) {
  bh.consume(o.a / o.divisor);
  bh.consume(o.b / o.divisor);
}

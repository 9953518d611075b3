// SPDX-License-Identifier: MIT
// Sample 06, DeadCode: a result nobody uses is a result the compiler never computes.
//
// The optimiser deletes computations whose results do not escape. `dropped` divides
// and throws the quotient away: it compiles to nothing and scores like `baseline`, an
// empty body. `returned` gives the quotient back; the harness consumes every returned
// value, so the division stays. C++ goes further than Java here: the compiler may
// also remove a new/delete pair whose memory is never observed, so
// `dropped_allocation` allocates nothing at all (-prof alloc shows 0 B/op), while
// `consumed_allocation` hands the pointer to cmh::Blackhole::consume and pays for a
// real allocation. If a score looks too good, suspect that the work is gone.
//
//   cmh-samples DeadCode -prof alloc
#include <cmh/cmh.hpp>

#include <cstdint>
#include <memory>

using namespace std::chrono_literals;

CMH_OPTIONS(DeadCode, cmh::mode::average_time, cmh::output_unit{1ns}, cmh::warmup{3, 500ms},
            cmh::measurement{5, 500ms}, cmh::fork{1});

namespace {
struct Operands : cmh::ThreadState {
  std::uint64_t dividend = 1'000'000'007, divisor = 13;
};
}  // namespace

CMH_BENCHMARK(DeadCode, baseline) {}

CMH_BENCHMARK(DeadCode, dropped, Operands& o) {
  [[maybe_unused]] const std::uint64_t quotient = o.dividend / o.divisor;  // deleted
}

CMH_BENCHMARK(DeadCode, returned, Operands& o) { return o.dividend / o.divisor; }

CMH_BENCHMARK(DeadCode, dropped_allocation, Operands& o) {
  [[maybe_unused]] auto p = std::make_unique<std::uint64_t>(o.dividend);  // elided too
}

CMH_BENCHMARK(DeadCode, consumed_allocation, Operands& o, cmh::Blackhole& bh) {
  auto p = std::make_unique<std::uint64_t>(o.dividend);
  bh.consume(p.get());
}

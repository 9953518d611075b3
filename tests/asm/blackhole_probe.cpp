// SPDX-License-Identifier: MIT
// Compiled to assembly (-O2 -S) by tests/e2e/asm.cmake and read by
// check_blackhole.py: each consumed computation carries a distinctive constant
// that must survive into the assembly; each unconsumed twin must vanish.
#include <cmh/blackhole.hpp>

#include <memory>

extern "C" {

// consume() itself emits nothing: this function is a bare return.
void probe_consume_only(int x) { cmh::Blackhole::consume(x); }

// A value computed only to be consumed is still computed...
void probe_consumed_multiply(int x) { cmh::Blackhole::consume(x * 19088743); }
// ...and without consume() it is deleted.
void probe_unconsumed_multiply(int x) {
  [[maybe_unused]] int y = x * 124076833;
}

// A constant folded at compile time still has to exist somewhere.
void probe_consumed_constant() { cmh::Blackhole::consume(6 * 111111); }

// A consumed pointer keeps its allocation and the stores through it.
void probe_consumed_pointer() {
  auto p = std::make_unique<int[]>(16);
  p[3] = 31415926;
  cmh::Blackhole::consume(p.get());
}
// An unconsumed allocation may be removed entirely (new/delete elision).
void probe_unconsumed_pointer() {
  auto p = std::make_unique<int[]>(16);
  p[3] = 27182818;
}

// A non-const lvalue: the compiler must not assume it is unchanged after consume().
int probe_lvalue_reload() {
  int v = 55555;
  cmh::Blackhole::consume(v);
  return v + 1;  // not foldable into 55556 after the sink claimed to modify v
}

// Large objects go through memory.
struct Wide {
  long a, b, c, d;
};
void probe_consumed_struct(long x) {
  Wide w{x, x + 77777, x, x};
  cmh::Blackhole::consume(w);
}
}

// SPDX-License-Identifier: MIT
// -Xlog:numa: the per-node allocation statistics, in the spirit of G1's gc+heap+numa
// log, printed to stderr at exit and on every cmh_alloc_collect(). Per node: bytes and
// allocations served from its memory since start (all threads, exited ones included),
// and how many of those were local (the allocating thread's heap was on that node) or
// remote. With NUMA mode off nothing is placed by node, so only the total is printed,
// with the reason; local and remote are said to be unknown rather than guessed.
#include <cstring>

#include "internal.hpp"
#include "text.hpp"

namespace cmh::allocator {
namespace {

// "12.5%" of part in whole, to a tenth of a percent, from integers only.
TextBuffer& add_percent(TextBuffer& t, uint64_t part, uint64_t whole) {
  if (whole == 0) return t.add("-");
  const uint64_t tenths = (part * 1000 + whole / 2) / whole;  // part <= whole < 2^54 in practice
  return t.add_uint(tenths / 10).add('.').add_uint(tenths % 10).add('%');
}

void emit(TextBuffer& t) {
  t.add('\n');
  prim::write_stderr(t.c_str(), t.length());
}

}  // namespace

void numa_log_print(const char* when) {
  if (!process_ready() || !options().log_numa) return;
  const NumaDecision& d = numa_decision();
  const Totals total = process_totals();
  char line[512];
  if (d.mode == 0) {
    TextBuffer t(line, sizeof(line) - 1);
    t.add("[cmh-alloc][numa] ").add(when).add(": NUMA mode off (").add(d.reason)
        .add("); allocated ").add_uint(total.bytes).add(" B in ").add_uint(total.count)
        .add(" allocations; per node: unknown (the heap is not placed by node)");
    emit(t);
    return;
  }
  {
    TextBuffer t(line, sizeof(line) - 1);
    t.add("[cmh-alloc][numa] ").add(when).add(": ").add(d.reason).add("; allocated ").add_uint(total.bytes)
        .add(" B in ").add_uint(total.count).add(" allocations (total / local / remote per node):");
    emit(t);
  }
  for (int n = 0; n < g_space.node_count; ++n) {
    const NodeTotals s = node_totals(n);
    TextBuffer t(line, sizeof(line) - 1);
    t.add("[cmh-alloc][numa]   node ").add_int(g_space.layout->node_id[n]).add(": total ").add_uint(s.bytes)
        .add(" B (").add_uint(s.count).add(" allocations), local ").add_uint(s.local_bytes).add(" B (");
    add_percent(t, s.local_bytes, s.bytes).add("), remote ").add_uint(s.bytes - s.local_bytes).add(" B (");
    add_percent(t, s.bytes - s.local_bytes, s.bytes).add(')');
    emit(t);
  }
}

namespace {
// At exit, after main returns (static destructors of the program may still allocate
// later; their bytes are not in this line, as G1's log does not see the VM's last words).
__attribute__((destructor)) void numa_log_at_exit() { numa_log_print("at exit"); }
}  // namespace

}  // namespace cmh::allocator

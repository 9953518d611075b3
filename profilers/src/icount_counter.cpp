// SPDX-License-Identifier: MIT
// -prof icount inside the fork under Callgrind (see icount_counter.hpp).
#include "icount_counter.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <cmh/detail/counted_calls.hpp>

#if defined(CMH_HAVE_CALLGRIND_H)
#include <valgrind/callgrind.h>
#endif

namespace cmh::profilers {
namespace {

bool on_valgrind() {
#if defined(CMH_HAVE_CALLGRIND_H)
  return RUNNING_ON_VALGRIND != 0;
#else
  return false;
#endif
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("-prof icount: cannot read Callgrind's dump " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

CallgrindCounter::CallgrindCounter(std::uint64_t calls, std::string out_file)
    : calls_(calls), out_file_(std::move(out_file)) {
  if (!on_valgrind())
    throw ProfilerError(std::string("-prof icount: ") + kIcountOutEnv +
                        " is set, but this process does not run under Valgrind");
  engine::set_counted_calls(calls_);
#if defined(CMH_HAVE_CALLGRIND_H)
  CALLGRIND_START_INSTRUMENTATION;
#endif
  // The empty body through the same counted loop. Only its instructions and data accesses
  // are subtracted: a miss in the benchmark's window is the benchmark's, and the empty
  // loop's few misses are an accident of the moment it ran.
  engine::count_empty_loop(calls_, true);
  empty_ = dump().references_only();
}

CallgrindCounts CallgrindCounter::dump() {
#if defined(CMH_HAVE_CALLGRIND_H)
  CALLGRIND_DUMP_STATS_AT("cmh -prof icount");
#endif
  const std::string path = out_file_ + "." + std::to_string(++dumps_);
  const std::string text = read_whole(path);
  ::unlink(path.c_str());
  std::string error;
  auto counts = parse_callgrind_dump(text, error);
  if (!counts) throw std::runtime_error("-prof icount: Callgrind's dump " + path + " is unreadable: " + error);
  if (!counts->cache_sim)
    throw std::runtime_error("-prof icount: Callgrind's dump " + path + " has no cache events (--cache-sim=no?)");
  return *counts;
}

std::vector<ScalarResult> CallgrindCounter::after_iteration(const BenchmarkParams&, const IterationParams& ip,
                                                            const IterationResult& result) {
  if (ip.kind != IterationKind::measurement) return {};  // warmup calls are not collected
  const CallgrindCounts total = dump();
  if (result.measured_ops == 0) return {};
  // Every worker made calls_ calls through the same loop: one empty loop each.
  const double threads = static_cast<double>(result.threads.size());
  const CallgrindCounts body = total.minus(empty_, threads);
  const double ops = static_cast<double>(result.measured_ops);
  const auto per_op = [&](double v) { return v / ops; };
  std::vector<ScalarResult> out = {
      {"icount.ir.norm", per_op(body.ir), "#/op", AggregationPolicy::average},
      {"icount.cycles.norm", per_op(body.estimated_cycles()), "#/op", AggregationPolicy::average},
      {"icount.l1miss.norm", per_op(body.l1_misses()), "#/op", AggregationPolicy::average},
      {"icount.llmiss.norm", per_op(body.ram_hits()), "#/op", AggregationPolicy::average},
  };
  if (total.branch_sim)
    out.push_back({"icount.branchmiss.norm", per_op(body.branch_misses()), "#/op", AggregationPolicy::average});
  out.push_back({"icount.overhead.norm", per_op(threads * empty_.ir), "#/op", AggregationPolicy::average});
  out.push_back({"icount.overhead.cycles.norm", per_op(threads * empty_.estimated_cycles()), "#/op",
                 AggregationPolicy::average});
  return out;
}

}  // namespace cmh::profilers

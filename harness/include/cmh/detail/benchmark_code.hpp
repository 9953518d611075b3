// SPDX-License-Identifier: MIT
// The type-erased code of a benchmark as the engine (harness/src/engine) keeps it:
// built by the library from what a benchmark file registers (descriptors.hpp), or
// directly by layers that register bodies at run time (the Google Benchmark layer).
// Per operation nothing here is called indirectly: the engine calls one LoopFn
// (loop_interface.hpp) per thread per iteration, and that function runs the whole
// loop with the benchmark body inlined.
#pragma once

#include <cmh/detail/descriptors.hpp>
#include <cmh/detail/loop_interface.hpp>
#include <cmh/histogram.hpp>
#include <cmh/options.hpp>
#include <cmh/params.hpp>
#include <cmh/registry.hpp>
#include <cmh/result.hpp>
#include <cmh/state.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace cmh::detail {

/// The lock of one shared state instance (declared in loop_interface.hpp).
class StateLock {
 public:
  std::mutex mutex;
};

struct ParamCheck {
  std::string name;
  std::string type_name;
  bool (*accepts)(std::string_view value) = nullptr;
};

struct AuxCounterDecl {
  std::string name;
  bool events = false;
};

/// The code of one benchmark body (one @Group member, or the whole benchmark).
struct MemberCode {
  std::string name;
  std::vector<StateOps> states;          ///< the state closure, dependencies first
  std::vector<ParamDecl> params;         ///< declared by those states, sorted by name
  std::vector<ParamCheck> param_checks;  ///< one per (state, parameter)
  std::vector<AuxCounterDecl> aux_counters;  ///< in the order LoopFn writes WorkerTally::aux
  LoopFn loop = nullptr;
  /// Bodies registered at run time (the Google Benchmark layer): what their
  /// LoopFn and fixtures find in WorkerView::context, and an optional hook
  /// that appends the iteration's secondary results the body itself reported
  /// (its counters) and may set the iteration's label (IterationResult::label).
  /// The hook runs after the iteration teardowns, outside the profiled window,
  /// with this member's workers' views and measurements.
  const void* context = nullptr;
  void (*report)(const void* context, const std::vector<const WorkerView*>& views,
                 const std::vector<ThreadMeasurement>& threads, const BenchmarkParams& plan,
                 std::vector<ScalarResult>& out, std::string& label) = nullptr;
};

class BenchmarkCode {
 public:
  std::vector<MemberCode> members;  ///< one, or one per @Group member (BenchmarkDefinition order)
};

/// Thrown by StateOps::create when a parameter value does not convert.
struct ParamError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Per-benchmark options (CMH_BENCHMARK_OPTIONS); merged by the registry.
void register_benchmark_options(std::string group, std::string name, OptionSet options,
                                const char* file, int line);

}  // namespace cmh::detail

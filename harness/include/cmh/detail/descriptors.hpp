// SPDX-License-Identifier: MIT
// What a benchmark file registers: constant tables that describe one benchmark body
// (its states, their parameters and aux counters, its loop), built at compile time by
// registration.hpp and turned into the engine's MemberCode and BenchmarkDefinition by
// the library (harness/src/engine/descriptors.cpp).
//
// Why tables rather than code: every CMH_BENCHMARK used to build its definition with
// std::string, std::vector, std::shared_ptr and a std::sort over its parameters in the
// user's translation unit, compiled again for every benchmark of every file. A table
// is data; the one function that reads it is compiled once, in the library.
#pragma once

#include <cmh/detail/loop_interface.hpp>
#include <cmh/state.hpp>

#include <cstddef>
#include <string_view>
#include <typeinfo>

namespace cmh::detail {

/// One parameter (cmh::param) of one state.
struct ParamDescriptor {
  std::string_view name;
  const std::string_view* defaults = nullptr;
  std::size_t default_count = 0;
  const char* type_label = nullptr;      ///< "int", "std::string", ...; nullptr: demangle `type`
  const std::type_info* type = nullptr;  ///< the member's type
  bool (*accepts)(std::string_view value) = nullptr;
};

/// One aux counter (cmh::ops_counter / cmh::event_counter) of one state.
struct AuxDescriptor {
  std::string_view name;
  bool events = false;
};

/// One state type of a member's closure: its type-erased operations, as the engine
/// keeps them (MemberCode::states).
struct StateOps {
  const std::type_info* type = nullptr;
  Scope scope = Scope::thread;
  void* (*create)(const ParamValues& values) = nullptr;  ///< throws on a bad parameter value
  void (*destroy)(void* self) noexcept = nullptr;
  FixtureFn setup_trial = nullptr;
  FixtureFn setup_iteration = nullptr;
  FixtureFn teardown_iteration = nullptr;
  FixtureFn teardown_trial = nullptr;
  bool invocation_fixtures = false;
};

/// One state type of a body's closure: its operations and what it declares.
struct StateDescriptor {
  StateOps ops;
  const ParamDescriptor* params = nullptr;
  std::size_t param_count = 0;
  const AuxDescriptor* aux = nullptr;
  std::size_t aux_count = 0;
};

/// One CMH_BENCHMARK or CMH_GROUP_BENCHMARK.
struct BenchmarkDescriptor {
  const char* group = "";
  const char* name = "";
  const char* member = "";  ///< @Group member name; "" otherwise
  bool group_member = false;
  int group_threads = 1;
  const char* file = "";
  int line = 0;
  const StateDescriptor* states = nullptr;  ///< the closure, dependencies first
  std::size_t state_count = 0;
  LoopFn loop = nullptr;
};

/// Registers the benchmark `d` describes (during static initialisation); always true.
bool register_benchmark_code(const BenchmarkDescriptor& d);

/// The text of parameter `p` in `values`, or its first default; throws ParamError
/// when there is neither.
std::string_view param_text(const ParamValues& values, const ParamDescriptor& p);
/// Throws ParamError: `text` is not a valid value of parameter `p`.
[[noreturn]] void throw_bad_param_value(const ParamDescriptor& p, std::string_view text);

}  // namespace cmh::detail

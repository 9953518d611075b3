// SPDX-License-Identifier: MIT
// Whose code an instruction is: the benchmark's (the user's), the harness's (the
// measurement loop, the blackhole, the worker threads), the bundled allocator's, a
// system library's or the kernel's. A sample's owner is decided by its innermost
// function after inlining, so the harness loop that a benchmark body is inlined into
// counts as the user's where the body's own instructions are, and as the harness's
// around them. perfasm labels its listing with it and warns when the user's share is
// (almost) nothing: the body was optimised away.
#pragma once

#include "analysis/symbolizer.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cmh::profilers::analysis {

enum class CodeOwner { user, harness, allocator, library, kernel, unknown };

/// "user", "harness", "allocator", "library", "kernel", "unknown".
std::string_view owner_name(CodeOwner owner);

/// What identifies a benchmark's own code in the symbols.
struct BenchmarkIdentity {
  std::string label;  ///< "Group.name"
  /// Names the body's function has (CMH_BENCHMARK's tag type, one per @Group member):
  /// "cmh_benchmark_Group_name::run".
  std::vector<std::string> body_names;
  std::string executable;  ///< the path the benchmark's code is in
};

BenchmarkIdentity benchmark_identity(std::string_view group, std::string_view name,
                                     const std::vector<std::string>& group_members, std::string executable);

/// `function`: the ELF symbol's demangled name; `chain`: the inline chain, innermost first.
CodeOwner owner_of(const std::string& module, const std::string& function, const std::vector<InlineFrame>& chain,
                   const BenchmarkIdentity& benchmark);

/// true when `function` is the benchmark body or one of the harness's loop functions for
/// it, i.e. the frame a flame graph's stacks are cut at.
bool is_body(const std::string& function, const BenchmarkIdentity& benchmark);

}  // namespace cmh::profilers::analysis

// SPDX-License-Identifier: MIT
// StackNamer: a sampled call stack (addresses, innermost first) as flame-graph frames
// (names, root first): every address expanded into its inline chain, then the stack cut
// at the benchmark's own frame, which is renamed after the benchmark, so the harness
// that calls it never appears above it. Stacks that do not pass through that frame are
// kept under a bracketed frame saying why: the harness loop itself, another thread
// (the stack reached a thread's first frame), or a stack the unwinder lost frames of.
#pragma once

#include "analysis/attribution.hpp"
#include "analysis/symbolizer.hpp"
#include "sampling/profile.hpp"

#include <map>
#include <string>
#include <vector>

namespace cmh::profilers::analysis {

enum class StackKind { benchmark, harness_loop, other_thread, truncated };

inline constexpr const char* kHarnessLoopFrame = "[harness loop]";
inline constexpr const char* kOtherThreadFrame = "[outside the benchmark]";
inline constexpr const char* kTruncatedFrame = "[truncated stack]";

class StackNamer {
 public:
  StackNamer(const sampling::Profile& profile, const BenchmarkIdentity& benchmark, Symbolizer& symbols);

  /// Root-first frames for `stack` (the first is always the benchmark's label).
  StackKind name(const sampling::Stack& stack, std::vector<std::string>& frames);

 private:
  struct Expanded {
    std::vector<std::string> full;   ///< outermost first, demangled
    std::vector<std::string> shown;  ///< the same, shortened for the graph
  };
  const Expanded& expand(const sampling::CodeAddress& a);

  const sampling::Profile& profile_;
  const BenchmarkIdentity& benchmark_;
  Symbolizer& symbols_;
  std::vector<std::string> loop_markers_;  ///< "cmh_benchmark_G_N" inside the harness loop's name
  std::map<sampling::CodeAddress, Expanded> cache_;
};

}  // namespace cmh::profilers::analysis

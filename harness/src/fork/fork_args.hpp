// SPDX-License-Identifier: MIT
// The fork-argument vocabulary (-forkArgs*, cmh::fork{...}) and its parser.
//
// Three kinds, validated before any fork starts:
//  - allocator flags in the JVM's spelling (-Xmx<size>, -Xms<size>, -XX:±AlwaysPreTouch,
//    -XX:±UseNUMA, -XX:RegionSize=<size>, -XX:DecayTime=<ms>) -> CMH_ALLOC of the fork;
//  - numactl's bindings (--cpunodebind= --physcpubind= --membind= --interleave=
//    --preferred= --localalloc) -> CPU affinity and memory policy set between fork and exec;
//  - -D<NAME>=<value> -> an environment variable of the fork.
// Node and CPU lists are parsed with libnuma against this machine's topology.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cmh::forking {

/// A bad fork argument; what() is one line naming it.
struct ForkArgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class MemoryPolicy { inherit, bind, interleave, preferred, local };

struct ForkSettings {
  /// Allocator flags in the order given, for CMH_ALLOC (empty: CMH_ALLOC is not touched).
  std::vector<std::string> allocator_flags;
  /// -XX:Allocator=<name|path> (the last one wins): "" or "cmh" for the bundled allocator,
  /// otherwise the name or absolute path passed in CMH_ALLOC (also in allocator_flags).
  std::string allocator;
  /// The library to put first in the fork's LD_PRELOAD ("" for cmh and glibc).
  std::string preload;
  /// -DNAME=value, in order (a later one wins).
  std::vector<std::pair<std::string, std::string>> environment;
  /// CPUs the fork may run on; empty = inherit the host's affinity.
  std::vector<int> cpus;
  MemoryPolicy memory_policy = MemoryPolicy::inherit;
  std::vector<int> memory_nodes;  ///< for bind / interleave / preferred
  /// The binding arguments as given, for the header and -v EXTRA.
  std::vector<std::string> binding_args;
  /// The heap flags as the allocator applies them (the last of each wins); unset if not given.
  std::optional<std::uint64_t> initial_heap, max_heap;
  std::optional<bool> always_pretouch;

  bool has_binding() const { return !cpus.empty() || memory_policy != MemoryPolicy::inherit; }
};

/// Parses and checks every argument; a later binding of the same kind replaces an
/// earlier one (as numactl applies them in order). Throws ForkArgError.
ForkSettings parse_fork_args(const std::vector<std::string>& args);

/// The CMH_ALLOC value: the allocator flags joined by spaces.
std::string allocator_env_value(const ForkSettings& settings);

/// The fork's LD_PRELOAD: settings.preload first, then `inherited` (may be nullptr).
std::string preload_env_value(const ForkSettings& settings, const char* inherited);

/// "0-3,8" for a sorted list of ints.
std::string format_int_list(const std::vector<int>& values);

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// The sampled profile of one benchmark: what each fork's window-gated sampling found,
// aggregated by code address (and by call stack when stacks are sampled), with the
// fork's exact op count beside it so that every weight can be put per operation.
//
// Addresses are ELF addresses (the sampled ip minus its object's load bias), keyed by
// the object's path, so forks with different ASLR layouts add up. A fork writes its
// Profile as JSON to the file the host named (SamplingProfiler); the host appends the
// forks and analyses them (perfasm, flame).
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::profilers::sampling {

/// An instruction: the object (index into Profile::modules) and its ELF address.
struct CodeAddress {
  std::uint32_t module = 0;
  std::uint64_t address = 0;
  auto operator<=>(const CodeAddress&) const = default;
};

/// Samples and the sum of their periods (cycles, or ns for the clock events).
struct Weight {
  std::uint64_t samples = 0;
  std::uint64_t period = 0;
  void add(std::uint64_t p) {
    ++samples;
    period += p;
  }
  void add(const Weight& w) {
    samples += w.samples;
    period += w.period;
  }
};

using Stack = std::vector<CodeAddress>;  ///< innermost first

struct EventSamples {
  std::map<CodeAddress, Weight> addresses;  ///< by sampled instruction
  std::map<Stack, Weight> stacks;           ///< by call stack, when stacks are sampled
};

struct ForkProfile {
  int fork = 1;
  std::uint64_t ops = 0;       ///< every op of the sampled iterations (ramps included, as all_ops)
  std::int64_t window_ns = 0;  ///< Σ wall time of the sampled iterations
  int iterations = 0;
  std::uint32_t threads = 0;   ///< threads that had events
  std::uint64_t lost = 0;      ///< samples the kernel could not write (full buffer)
  std::uint64_t dropped = 0;   ///< samples not kept (raw stack storage full)
  std::uint64_t throttled = 0; ///< times the kernel throttled sampling (perf_event_max_sample_rate)
  std::uint64_t truncated = 0; ///< stacks whose unwinding stopped early
  std::vector<EventSamples> events;  ///< one per Profile::events
};

struct ProfileEvent {
  std::string name;         ///< "cycles", "cpu-clock"
  std::string period_unit;  ///< "cycles", "ns", "events"
  bool hardware = false;
};

struct Profile {
  std::vector<std::string> modules;  ///< object paths; "[kernel]", "[vdso]", "[unknown]"
  std::vector<ProfileEvent> events;  ///< the first ranks
  std::string stacks = "none";       ///< "none", "frame pointers", "dwarf"
  int frequency = 0;
  bool user_only = false;  ///< the kernel refused kernel-mode samples
  bool precise = false;    ///< precise_ip (little skid) was granted
  /// Set when sampling could not run in a fork: why (one line).
  std::optional<std::string> unavailable;
  std::vector<ForkProfile> forks;

  /// Index of `path` in modules, added if new.
  std::uint32_t module_index(std::string_view path);
};

std::string profile_to_json(const Profile& profile);
/// Throws std::runtime_error for text that is not a profile.
Profile profile_from_json(std::string_view text);

/// Appends `from`'s forks to `into` (module indices remapped by path); the first
/// profile with events sets the header fields.
void append_forks(Profile& into, const Profile& from);

/// Σ over forks: per event, the weights by address / by stack, and the ops.
EventSamples merged_event(const Profile& profile, std::size_t event);
std::uint64_t total_ops(const Profile& profile);

}  // namespace cmh::profilers::sampling

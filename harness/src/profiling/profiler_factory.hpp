// SPDX-License-Identifier: MIT
// From -prof arguments to profiler instances, and the -lprof / name:help texts.
//
// The host calls resolve_profiler() and create_profiler() for every -prof before
// anything runs (a bad spec becomes "Error parsing command line:" and exit 1); the
// fork worker calls create_profiler() again for its own instances. Both read the
// one ProfilerRegistry, so a user's registered profiler works in both places.
#pragma once

#include <cmh/profiler.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::profiling {

struct ProfilerRequest {
  const ProfilerInfo* info = nullptr;  ///< never null
  ProfilerOptions options;             ///< without "help"
  bool help = false;                   ///< "name:help": print profiler_help_text(), run nothing
};

/// Parses `spec` and finds its profiler. Throws ProfilerError for a malformed spec or
/// an unknown name (the message lists the known ones).
ProfilerRequest resolve_profiler(std::string_view spec);

/// Creates the profiler `spec` asks for. Throws ProfilerError when the spec is
/// malformed, the name unknown, the profiler cannot run here (with its reason), an
/// option is unknown or bad, or the spec is a help request.
std::unique_ptr<Profiler> create_profiler(std::string_view spec);

/// Which part of its profilers a process runs: the part inside the benchmark's process
/// (InternalProfiler) in a fork or with -f 0, the part around a fork (ExternalProfiler)
/// on the host.
enum class ProfilerSide { in_process, around_fork };

/// The profilers of one benchmark that have a part on one side.
struct ProfilerSet {
  std::vector<std::unique_ptr<Profiler>> owned;
  std::vector<InternalProfiler*> internal;   ///< in_process: the owned ones, as InternalProfiler
  std::vector<ExternalProfiler*> external;   ///< around_fork: the owned ones, as ExternalProfiler
  std::vector<std::string> other_side_only;  ///< names of the profilers with a part only on the other side
};

/// Creates, in `specs` order, the profilers with a part on `side`. Throws ProfilerError
/// as create_profiler() does. The host's run loop and the fork worker both build theirs here.
ProfilerSet create_profilers(const std::vector<std::string>& specs, ProfilerSide side);

/// Every spec checked (and each instance created and dropped) before a run starts.
void validate_profiler_specs(const std::vector<std::string>& specs);

/// The text for -prof name:help: usage line, description, options, and what the
/// profiler cannot measure here.
std::string profiler_help_text(const ProfilerInfo& info);

/// The -lprof text: "Supported profilers:" and "Unsupported profilers:" with the
/// reason for each unsupported one (JMH's layout), ending in a newline.
std::string profiler_list_text(const ProfilerRegistry& registry = ProfilerRegistry::instance());

}  // namespace cmh::profiling

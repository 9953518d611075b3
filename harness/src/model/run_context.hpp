// SPDX-License-Identifier: MIT
// Facts about the run and the machine, detected once by the host
// (report/environment.cpp) and shown in the header, the JSON "cmh" object and
// the gbench context block.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cmh::model {

struct RunContext {
  std::string executable;       ///< absolute path of the benchmark executable
  std::string compiler;         ///< "GCC 12.2.0"
  std::string compiler_flags;
  std::string cmh_version;
  std::string cpu_model;
  int cpu_count = 0;
  std::string kernel;
  std::string numa_mode;        ///< "on" / "off"
  std::string numa_reason;
  std::string allocator_options;
  std::vector<std::string> warnings;
  std::string build_type;       ///< "release" / "debug", for gbench's context
  /// Pairs a framework added (cmh/detail/custom_context.hpp), in order.
  std::vector<std::pair<std::string, std::string>> custom;
};

/// Detects everything above for this process (implemented in report/environment.cpp).
RunContext detect_run_context();

}  // namespace cmh::model

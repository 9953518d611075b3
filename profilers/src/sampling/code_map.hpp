// SPDX-License-Identifier: MIT
// CodeMap: which loaded object an instruction pointer of this process is in, and its
// ELF address there (ip minus the object's load bias), from dl_iterate_phdr. The
// executable's own entry has no name there; /proc/self/exe gives its path.
#pragma once

#include "sampling/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cmh::profilers::sampling {

inline constexpr const char* kKernelModule = "[kernel]";
inline constexpr const char* kUnknownModule = "[unknown]";

class CodeMap {
 public:
  /// Reads the loaded objects; `profile` receives their paths as modules.
  explicit CodeMap(Profile& profile);
  /// Reads them again (after a dlopen): call when locate() found nothing.
  void refresh();
  /// The object and ELF address of `ip`; a kernel ip goes to [kernel], an address no
  /// object maps to [unknown] (both keep the raw ip as address).
  CodeAddress locate(std::uint64_t ip, bool kernel);

 private:
  struct Range {
    std::uint64_t start = 0, end = 0, bias = 0;
    std::uint32_t module = 0;
  };
  Profile& profile_;
  std::vector<Range> ranges_;  ///< executable PT_LOAD segments, sorted by start
  bool refreshed_since_miss_ = false;
};

}  // namespace cmh::profilers::sampling

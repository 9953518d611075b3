// SPDX-License-Identifier: MIT
#include "cmh/common/self_executable.hpp"

#include <filesystem>
#include <system_error>

namespace cmh::common {

std::string self_executable_path() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

}  // namespace cmh::common

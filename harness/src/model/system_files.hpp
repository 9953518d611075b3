// SPDX-License-Identifier: MIT
// Reading the one-line files of /proc and /sys that the environment probes
// (report/environment.cpp) and the gbench context (formats/machine_info.cpp) use.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace cmh::model {

/// The first line of `path` without trailing '\r' or spaces; nullopt when it cannot be read.
std::optional<std::string> read_first_line(const std::filesystem::path& path);

}  // namespace cmh::model

// SPDX-License-Identifier: MIT
// See system_files.hpp.
#include "model/system_files.hpp"

#include <fstream>

namespace cmh::model {

std::optional<std::string> read_first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace cmh::model

// SPDX-License-Identifier: MIT
// The state file of cmh-system tune: every file tune changed, with its bytes from
// before the first tune, so that reset can put each back exactly. A later tune
// adds the files it changes for the first time and keeps the saved bytes of the
// others: the state always describes the machine before any tune.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmh::system {

/// A state file that cannot be read, parsed or written; what() is one line.
struct StateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SavedFile {
  std::string path;   ///< absolute in the tree ("/sys/..."), not including --root
  std::string knob;   ///< the knob id it belongs to ("cpu.governor")
  std::string saved;  ///< its whole content before the first tune, byte for byte
};

struct State {
  std::string created;  ///< ISO 8601 time of the first tune
  std::string root;     ///< the --root it was made with, for the reader's information
  std::vector<SavedFile> files;  ///< in the order tune wrote them

  const SavedFile* find(const std::string& path) const;
};

/// Reads a state file; throws StateError naming the file and the problem.
State read_state(const std::filesystem::path& file);

/// Writes it atomically (a temporary file, fsync, rename), creating its directory.
void write_state(const std::filesystem::path& file, const State& state);

/// The current local time as "2024-05-01T12:00:00+02:00".
std::string now_iso8601();

}  // namespace cmh::system

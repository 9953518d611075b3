// SPDX-License-Identifier: MIT
// The files of /sys and /proc seen from a root: "/" on a real machine, a fake tree in
// tests, or the host's tree mounted elsewhere in a container (cmh-system --root).
// Every read says why it failed, so that a knob nobody can read is shown as
// "unknown" with the reason rather than as a guess.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cmh::machine {

/// A whole file's bytes, or the errno of the failed open/read.
struct FileRead {
  std::optional<std::string> content;
  int error = 0;
  /// "does not exist", "permission denied", ... (empty when the read worked).
  std::string reason() const;
};

class SysTree {
 public:
  explicit SysTree(std::filesystem::path root = "/");

  const std::filesystem::path& root() const { return root_; }
  /// True when the root is the running kernel's own "/" (cpuid and the process's own
  /// affinity describe the same machine as the files).
  bool is_live() const { return live_; }

  /// `absolute` ("/sys/...") under the root.
  std::filesystem::path at(std::string_view absolute) const;

  /// The whole file, byte for byte.
  FileRead read(std::string_view absolute) const;
  /// The first line without trailing whitespace; nullopt when unreadable.
  std::optional<std::string> line(std::string_view absolute) const;
  bool exists(std::string_view absolute) const;
  /// The names in a directory, sorted; empty when it cannot be listed.
  std::vector<std::string> list(std::string_view absolute) const;

  /// Writes `bytes` as the file's whole content (one write(2), as the kernel's
  /// attribute files expect). Returns 0 or the errno.
  int write(std::string_view absolute, std::string_view bytes) const;
  /// 0 when this process may open the file for writing, else the errno (EACCES, ...).
  int check_writable(std::string_view absolute) const;
  /// True when the file lives on sysfs or procfs, whose choice files ("always
  /// [madvise] never") are set by writing the chosen word, not the listing.
  bool is_kernel_file(std::string_view absolute) const;

 private:
  std::filesystem::path root_;
  bool live_ = true;
};

/// "does not exist" for ENOENT, "permission denied" for EACCES/EPERM, strerror otherwise.
std::string errno_text(int error);

/// The first line of `text` without trailing whitespace.
std::string first_line(std::string_view text);

}  // namespace cmh::machine

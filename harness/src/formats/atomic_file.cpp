// SPDX-License-Identifier: MIT
// Atomic replacement of result files and the start-up writability check (see
// atomic_file.hpp). POSIX calls rather than std::filesystem because the guarantee
// rests on O_EXCL, fsync and rename(2) semantics that std::filesystem does not expose.
#include "formats/atomic_file.hpp"

#include "formats/result_format.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace cmh::formats {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw FormatError("cannot write result file '" + path + "': " + reason);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// A name in `dir` that no other writer uses: hidden, with the pid and a counter.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  std::string dir = directory_of(path);
  if (dir != "/") dir += '/';
  return dir + "." + base_name_of(path) + ".tmp-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter.fetch_add(1));
}

/// Follows a chain of symbolic links (dangling ones too: the target is what gets created).
std::string resolve_links(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::string target(4096, '\0');
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n <= 0) return path;
    target.resize(static_cast<std::size_t>(n));
    path = target.front() == '/' ? target : directory_of(path) + "/" + target;
  }
  fail(path, "too many levels of symbolic links");
}

void write_all(int fd, std::string_view content, const std::string& path) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      fail(path, std::strerror(err));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

/// Targets that are not regular files (devices, FIFOs) cannot be renamed over.
void write_in_place(const std::string& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail(path, std::strerror(errno));
  write_all(fd, content, path);
  ::close(fd);
}

}  // namespace

std::string check_writable(const std::string& given) {
  if (given.empty()) fail(given, "empty file name");
  const std::string path = resolve_links(given);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(given, "is a directory");
    if (::access(path.c_str(), W_OK) != 0) fail(given, std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return path;  // written in place, no rename needed
  }
  const std::string dir = directory_of(path);
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0) {
    if (errno == ENOENT) fail(given, "directory '" + dir + "' does not exist");
    fail(given, "directory '" + dir + "': " + std::strerror(errno));
  }
  if (!S_ISDIR(dst.st_mode)) fail(given, "'" + dir + "' is not a directory");
  // The only reliable test of "can a file be created here" (root, ACLs, read-only
  // mounts) is to create one; the probe is removed at once.
  const std::string probe = temporary_name(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) fail(given, "directory '" + dir + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return path;
}

void write_atomically(const std::string& path, std::string_view content) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    write_in_place(path, content);
    return;
  }
  const std::string tmp = temporary_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // umask applies
  if (fd < 0) fail(path, "temporary file in '" + directory_of(path) + "': " + std::strerror(errno));
  const auto give_up = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, std::strerror(err));
  };
  if (exists && ::fchmod(fd, st.st_mode & 07777) != 0) give_up(errno);  // keep the file's permissions
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (::fsync(fd) != 0) give_up(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, std::strerror(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, std::strerror(err));
  }
  // Make the rename itself durable (a crash of the machine, not only of cmh).
  const int dir_fd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace cmh::formats

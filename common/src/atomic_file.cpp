// SPDX-License-Identifier: MIT
// Atomic replacement of result files and the start-up writability check (see
// atomic_file.hpp). POSIX calls rather than std::filesystem because the guarantee
// rests on O_EXCL, fsync and rename(2) semantics that std::filesystem does not expose.
#include <cmh/common/atomic_file.hpp>
#include <cmh/common/format_error.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>

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

/// A path that names a descriptor rather than a file: /dev/stdout, /dev/stderr,
/// /dev/fd/N, /proc/self/fd/N (the descriptor, >= 0) or /proc/<pid>/fd/N (-1).
std::optional<int> descriptor_of(std::string_view path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  auto number_after = [&](std::string_view prefix) -> std::optional<int> {
    if (!path.starts_with(prefix)) return std::nullopt;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
    return fd;
  };
  if (auto fd = number_after("/dev/fd/")) return fd;
  if (auto fd = number_after("/proc/self/fd/")) return fd;
  if (auto fd = number_after("/proc/thread-self/fd/")) return fd;
  if (path.starts_with("/proc/")) {
    const auto fd_at = path.find("/fd/");
    if (fd_at != std::string_view::npos && number_after(path.substr(0, fd_at + 4))) return -1;
  }
  return std::nullopt;
}

/// Follows a chain of symbolic links (dangling ones too: the target is what gets created),
/// but stops at a descriptor path: /proc/self/fd/1 is a link to whatever fd 1 is
/// ("pipe:[123]", or the file stdout was redirected to), which must not be replaced.
std::string resolve_links(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    if (descriptor_of(path)) return path;
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

/// Writes everything; returns 0 or the errno of the write that failed.
int write_all(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return 0;
}

/// Targets that are not regular files (devices, FIFOs, the host's own descriptors)
/// cannot be renamed over. A descriptor of this process is written through as it
/// is, at its current offset: reopening /dev/stdout with O_TRUNC would cut away a
/// report that goes to the same file.
void write_in_place(const std::string& path, std::string_view content) {
  if (const auto own = descriptor_of(path); own && *own >= 0) {
    std::fflush(nullptr);  // what stdio holds for that descriptor goes first
    if (const int err = write_all(*own, content)) fail(path, std::strerror(err));
    return;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail(path, std::strerror(errno));
  const int err = write_all(fd, content);
  if (::close(fd) != 0 && err == 0 && errno != EINTR) fail(path, std::strerror(errno));
  if (err != 0) fail(path, std::strerror(err));
}

/// Removes `.<name>.tmp-<pid>-<n>` files next to `path` whose writer is dead: a
/// writer killed with -9 between creating its temporary file and renaming it
/// leaves one behind, and nothing else would ever remove it. A live pid's file
/// may be in use (another run's) and stays.
void remove_stale_temporaries(const std::string& path) {
  const std::string prefix = "." + base_name_of(path) + ".tmp-";
  const std::string dir = directory_of(path);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (!name.starts_with(prefix)) continue;
    const std::string_view rest = name.substr(prefix.size());
    long pid = 0;
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (ec != std::errc() || pid <= 0 || ptr == rest.data() + rest.size() || *ptr != '-') continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    ::unlinkat(::dirfd(d), e->d_name, 0);
  }
  ::closedir(d);
}

}  // namespace

std::string check_writable(const std::string& given) {
  if (given.empty()) fail(given, "empty file name");
  const std::string path = resolve_links(given);
  if (const auto own = descriptor_of(path)) {
    if (*own < 0) return path;  // another process's descriptor: opened when written
    const int flags = ::fcntl(*own, F_GETFL);
    if (flags < 0) fail(given, "descriptor " + std::to_string(*own) + " is not open");
    if ((flags & O_ACCMODE) == O_RDONLY) fail(given, "descriptor " + std::to_string(*own) + " is read-only");
    return path;
  }
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
  remove_stale_temporaries(path);
  // The only reliable test of "can a file be created here" (root, ACLs, read-only
  // mounts) is to create one; the probe is removed at once.
  const std::string probe = temporary_name(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) fail(given, "directory '" + dir + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return path;
}

bool written_in_place(const std::string& path) {
  if (descriptor_of(path)) return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

void write_atomically(const std::string& path, std::string_view content) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (descriptor_of(path) || (exists && !S_ISREG(st.st_mode))) {
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
  if (const int err = write_all(fd, content)) give_up(err);
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

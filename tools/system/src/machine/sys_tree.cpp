// SPDX-License-Identifier: MIT
// See sys_tree.hpp. Plain POSIX calls: the errno of a failed open is the "why" that
// show prints, which std::ifstream would lose.
#include <cmh/machine/sys_tree.hpp>

#include <fcntl.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace cmh::machine {

namespace fs = std::filesystem;

namespace {

// From linux/magic.h (not included: it is a kernel header, not every libc ships it).
constexpr long kSysfsMagic = 0x62656572;
constexpr long kProcMagic = 0x9fa0;

}  // namespace

std::string errno_text(int error) {
  switch (error) {
    case 0: return "";
    case ENOENT: return "does not exist";
    case EACCES:
    case EPERM: return "permission denied";
    default: return std::strerror(error);
  }
}

std::string FileRead::reason() const { return content ? std::string() : errno_text(error); }

std::string first_line(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return std::string(line);
}

SysTree::SysTree(fs::path root) : root_(std::move(root)) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(root_, ec);
  live_ = !ec && canonical == fs::path("/");
}

fs::path SysTree::at(std::string_view absolute) const {
  while (!absolute.empty() && absolute.front() == '/') absolute.remove_prefix(1);
  return root_ / fs::path(absolute);
}

FileRead SysTree::read(std::string_view absolute) const {
  FileRead r;
  const int fd = ::open(at(absolute).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.error = errno;
    return r;
  }
  std::string content;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      content.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      r.error = errno;
      ::close(fd);
      return r;
    }
  }
  ::close(fd);
  r.content = std::move(content);
  return r;
}

std::optional<std::string> SysTree::line(std::string_view absolute) const {
  const FileRead r = read(absolute);
  if (!r.content) return std::nullopt;
  return first_line(*r.content);
}

bool SysTree::exists(std::string_view absolute) const {
  std::error_code ec;
  return fs::exists(at(absolute), ec);
}

std::vector<std::string> SysTree::list(std::string_view absolute) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(at(absolute), ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

int SysTree::write(std::string_view absolute, std::string_view bytes) const {
  const int fd = ::open(at(absolute).c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return errno;
  int error = 0;
  for (;;) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n >= 0) {
      // A kernel attribute takes its value in one write; a short one is a refusal.
      if (static_cast<std::size_t>(n) != bytes.size()) error = EIO;
      break;
    }
    if (errno != EINTR) {
      error = errno;
      break;
    }
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  return error;
}

int SysTree::check_writable(std::string_view absolute) const {
  return ::access(at(absolute).c_str(), W_OK) == 0 ? 0 : errno;
}

bool SysTree::is_kernel_file(std::string_view absolute) const {
  struct statfs st {};
  if (::statfs(at(absolute).c_str(), &st) != 0) return false;
  return static_cast<long>(st.f_type) == kSysfsMagic || static_cast<long>(st.f_type) == kProcMagic;
}

}  // namespace cmh::machine

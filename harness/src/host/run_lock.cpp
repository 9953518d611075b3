// SPDX-License-Identifier: MIT
// The machine-wide run lock (see run_lock.hpp). The descriptor is close-on-exec,
// so forks never hold it: only the host's lifetime counts.
#include "host/run_lock.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace cmh::host {

namespace {
constexpr const char* kOverride = "Use -Dcmh.ignoreLock=true to forcefully continue.";
}

std::string lock_path() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + "/cmh.lock";
}

std::optional<RunLock> RunLock::acquire(std::string& error) {
  const std::string path = lock_path();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = "ERROR: Unable to create the cmh lock file " + path + ": " + std::strerror(errno) + ". " + kOverride;
    return std::nullopt;
  }
  int rc;
  do rc = ::flock(fd, LOCK_EX | LOCK_NB);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int e = errno;
    ::close(fd);
    error = e == EWOULDBLOCK
                ? "ERROR: Another cmh run might be in progress: unable to acquire the cmh lock (" + path +
                      "), exiting. Two benchmark runs on one machine disturb each other. " + kOverride
                : "ERROR: Unable to lock " + path + ": " + std::strerror(e) + ". " + kOverride;
    return std::nullopt;
  }
  return RunLock(fd, path);
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace cmh::host

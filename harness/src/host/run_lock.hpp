// SPDX-License-Identifier: MIT
// One cmh run at a time per machine (JMH's jmh.lock): an flock on cmh.lock in
// the temp directory ($TMPDIR, else /tmp). The kernel drops an flock when its
// holder dies, so a crashed or killed run never leaves the lock stuck.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace cmh::host {

class RunLock {
 public:
  /// Takes the lock, or returns nullopt and sets `error` to the message to print
  /// (which names the override, -Dcmh.ignoreLock=true).
  static std::optional<RunLock> acquire(std::string& error);

  RunLock(RunLock&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }
  RunLock& operator=(RunLock&& other) noexcept {
    std::swap(fd_, other.fd_);
    std::swap(path_, other.path_);
    return *this;
  }
  RunLock(const RunLock&) = delete;
  ~RunLock();

  const std::string& path() const { return path_; }

 private:
  RunLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

/// $TMPDIR/cmh.lock, or /tmp/cmh.lock.
std::string lock_path();

}  // namespace cmh::host

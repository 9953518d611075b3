// SPDX-License-Identifier: MIT
// ReportStream (see report_stream.hpp): a glibc cookie stream, so that stdio's
// buffering stays and each write(2) it makes is checked here. The cookie write
// reports success even after an error: stdio would otherwise keep the data and
// retry, and the report code has nothing useful to do with the failure mid-run.
#include "host/report_stream.hpp"

#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <cstring>

namespace cmh::host {

ReportStream::ReportStream(int fd, bool owned, std::string name) : fd_(fd), owned_(owned), name_(std::move(name)) {
  cookie_io_functions_t io{};
  io.write = &ReportStream::on_write;
  io.close = &ReportStream::on_close;
  file_ = ::fopencookie(this, "w", io);
  if (file_ == nullptr) throw std::runtime_error("cannot set up the report stream: " + std::string(std::strerror(errno)));
}

ReportStream::~ReportStream() { close(); }

int ReportStream::close() {
  if (!closed_) {
    closed_ = true;
    std::fclose(file_);  // flushes through on_write, then on_close
  }
  return error_;
}

ssize_t ReportStream::on_write(void* cookie, const char* data, std::size_t size) {
  auto* self = static_cast<ReportStream*>(cookie);
  // An in-process (-f 0) benchmark printing to stdout shares fd 1: its buffered
  // text goes first, as it did when the report was written through stdout itself.
  if (self->fd_ == STDOUT_FILENO) std::fflush(stdout);
  std::size_t done = 0;
  while (self->error_ == 0 && done < size) {
    const ssize_t n = ::write(self->fd_, data + done, size - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      self->error_ = n < 0 ? errno : EIO;
    }
  }
  return static_cast<ssize_t>(size);
}

int ReportStream::on_close(void* cookie) {
  auto* self = static_cast<ReportStream*>(cookie);
  if (self->owned_ && ::close(self->fd_) != 0 && self->error_ == 0 && errno != EINTR) self->error_ = errno;
  return 0;
}

}  // namespace cmh::host

// SPDX-License-Identifier: MIT
// ReportStream: the FILE* the console report is written to (stdout or -o), over
// a descriptor whose every write is checked. The first failed write is kept and
// everything after it is dropped, so the run goes on and still writes its result
// files: a reader that went away (EPIPE, `cmh | head -3`) only stops the printing;
// any other error (a full disk, /dev/full) is reported at the end, exit status 2.
#pragma once

#include <cstdio>
#include <string>

namespace cmh::host {

class ReportStream {
 public:
  /// Writes to `fd`; owns it (closes it) when `owned`. `name` is for messages.
  ReportStream(int fd, bool owned, std::string name);
  ~ReportStream();
  ReportStream(const ReportStream&) = delete;
  ReportStream& operator=(const ReportStream&) = delete;

  std::FILE* file() const { return file_; }
  /// Flushes and closes (fd included when owned). Returns the first error (0: none).
  int close();
  /// The first write error so far (0: none; EPIPE: the reader went away).
  int error() const { return error_; }
  const std::string& name() const { return name_; }

 private:
  static ssize_t on_write(void* cookie, const char* data, std::size_t size);
  static int on_close(void* cookie);

  int fd_;
  bool owned_;
  std::string name_;
  std::FILE* file_ = nullptr;
  int error_ = 0;
  bool closed_ = false;
};

}  // namespace cmh::host

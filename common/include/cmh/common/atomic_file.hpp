// SPDX-License-Identifier: MIT
// Putting a result file on disk so that a reader (or a host killed with -9)
// only ever sees the old or the new content: write a temporary file in the same
// directory, fsync it, rename it over the target, fsync the directory. And the
// start-up check that the target can be written at all.
#pragma once

#include <cmh/common/format_error.hpp>

#include <string>
#include <string_view>

namespace cmh::formats {

/// Checks that `path` can be written the way write_atomically() writes it: its
/// directory exists, is a directory and accepts new files, and the path itself
/// is not a directory nor a read-only file. Returns the path to write (a symlink
/// is followed to its target, so the link survives the rename). Throws FormatError
/// "cannot write result file '<path>': <reason>".
std::string check_writable(const std::string& path);

/// True for a target write_atomically() writes in place rather than renames over:
/// a descriptor path (/dev/stdout, /dev/fd/N, /proc/self/fd/N) or an existing
/// file that is not a regular one (a device, a FIFO).
bool written_in_place(const std::string& path);

/// Replaces the content of `path` with `content` atomically. A target that exists
/// and is not a regular file (/dev/null, a FIFO), or a descriptor path
/// (/dev/stdout: written through that descriptor, at its offset), cannot be
/// renamed over and is written in place instead. Throws FormatError on any I/O error,
/// leaving the previous content in place.
void write_atomically(const std::string& path, std::string_view content);

}  // namespace cmh::formats

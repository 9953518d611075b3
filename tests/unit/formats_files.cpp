// SPDX-License-Identifier: MIT
// -rf / -rff handling and the files themselves: format names and file names,
// start-up errors for every unwritable path (one line naming the path), atomic
// replacement (a reader never sees a partial file, even when the writer is
// killed with SIGKILL), permissions, symbolic links and non-regular targets.
#include <doctest/doctest.h>

#include <cmh/common/atomic_file.hpp>
#include "formats/renderers.hpp"
#include "formats/result_format.hpp"
#include "formats_fixture.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace cmh;
using namespace cmh::formats;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under TMPDIR, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "cmh-formats-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> paths_of(const std::vector<std::unique_ptr<ResultWriter>>& writers) {
  std::vector<std::string> paths;
  for (const auto& w : writers) paths.push_back(w->path());
  return paths;
}

/// The FormatError message of make_writers(formats, file), or "" if it succeeded.
std::string error_of(std::string_view formats, std::string_view file) {
  try {
    make_writers(formats, file);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("formats files: -lrf lists every format") {
  CHECK(list_formats() == "Available formats: text, csv, scsv, json, latex, gbench, html");
}

TEST_CASE("formats files: format names are case-insensitive and each gets its own file name") {
  TempDir dir;
  CHECK(paths_of(make_writers("JSON", dir / "r.json")) == std::vector<std::string>{dir / "r.json"});
  CHECK(paths_of(make_writers("json", dir / "any.name")) == std::vector<std::string>{dir / "any.name"});
  // Several formats with -rff: <stem>.<ext>, the stem being -rff without a known extension.
  CHECK(paths_of(make_writers("json,gbench", dir / "run.json")) ==
        std::vector<std::string>{dir / "run.json", dir / "run.gbench.json"});
  CHECK(paths_of(make_writers("Csv, SCSV ,latex,text", dir / "out")) ==
        std::vector<std::string>{dir / "out.csv", dir / "out.scsv", dir / "out.tex", dir / "out.txt"});
  CHECK(paths_of(make_writers("gbench,json", dir / "x.gbench.json")) ==
        std::vector<std::string>{dir / "x.gbench.json", dir / "x.json"});
  CHECK(paths_of(make_writers("json,json,JSON", dir / "d.json")) == std::vector<std::string>{dir / "d.json"});
  // -rff alone: the extension picks the format, else JMH's default (CSV).
  auto by_ext = make_writers("", dir / "only.gbench.json");
  REQUIRE(by_ext.size() == 1);
  by_ext[0]->write(testing::synthetic_results(), testing::synthetic_context());
  CHECK(read_file(dir / "only.gbench.json").rfind("{\n  \"context\": {", 0) == 0);
  auto fallback = make_writers("", dir / "only.dat");
  fallback[0]->write(testing::synthetic_results(), testing::synthetic_context());
  CHECK(read_file(dir / "only.dat").rfind("\"Benchmark\",\"Mode\"", 0) == 0);
  // Nothing was left behind by the start-up checks.
  CHECK(entries_in(dir.path) == 2);
}

TEST_CASE("formats files: default names are cmh-result.<ext> in the working directory") {
  TempDir dir;
  const fs::path previous = fs::current_path();
  fs::current_path(dir.path);
  const auto writers = make_writers("text,csv,scsv,json,latex,gbench", "");
  fs::current_path(previous);
  CHECK(paths_of(writers) == std::vector<std::string>{"cmh-result.txt", "cmh-result.csv", "cmh-result.scsv",
                                                      "cmh-result.json", "cmh-result.tex", "cmh-result.gbench.json"});
}

TEST_CASE("formats files: bad -rf values and unwritable -rff paths are one-line start-up errors") {
  TempDir dir;
  std::string e = error_of("xml", dir / "r.xml");
  CHECK(contains(e, "unknown result format 'xml'"));
  CHECK(contains(e, "text, csv, scsv, json, latex, gbench, html"));
  CHECK(contains(error_of("json,bogus", dir / "r"), "'bogus'"));
  CHECK(contains(error_of("json,,csv", dir / "r"), "unknown result format ''"));

  e = error_of("json", dir / "missing/sub/r.json");
  CHECK(contains(e, "cannot write result file '" + (dir / "missing/sub/r.json") + "'"));
  CHECK(contains(e, "does not exist"));

  fs::create_directory(dir.path / "adir");
  e = error_of("json", dir / "adir");
  CHECK(contains(e, "'" + (dir / "adir") + "'"));
  CHECK(contains(e, "is a directory"));
  // With several formats the derived names are checked too: adir.json is fine, but not adir.gbench.json.
  fs::create_directory(dir.path / "adir.gbench.json");
  CHECK(contains(error_of("json,gbench", dir / "adir"), "adir.gbench.json': is a directory"));

  std::ofstream(dir / "plain") << "x";
  CHECK(contains(error_of("csv", dir / "plain/r.csv"), "is not a directory"));

  if (::geteuid() == 0) {
    // root passes permission checks; a kernel file system still refuses new files.
    e = error_of("json", "/sys/cmh-result.json");
    CHECK(contains(e, "cannot write result file '/sys/cmh-result.json'"));
  } else {
    fs::create_directory(dir.path / "ro");
    fs::permissions(dir.path / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    e = error_of("json", dir / "ro/r.json");
    CHECK(contains(e, "Permission denied"));
    std::ofstream(dir / "readonly.json") << "keep";
    fs::permissions(dir.path / "readonly.json", fs::perms::owner_read);
    CHECK(contains(error_of("json", dir / "readonly.json"), "Permission denied"));
  }
  for (const std::string& message : {error_of("xml", ""), error_of("json", dir / "missing/r.json"),
                                     error_of("json", dir / "adir")})
    CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("formats files: write() replaces the file with the current results each time") {
  TempDir dir;
  auto writers = make_writers("json,gbench,csv,scsv,latex", dir / "run");
  RunResults results = testing::synthetic_results();
  const auto ctx = testing::synthetic_context();
  results.benchmarks.resize(1);
  results.complete = false;
  for (auto& w : writers) w->write(results, ctx);
  CHECK(read_file(dir / "run.json") == render_jmh_json(results, ctx));
  CHECK(read_file(dir / "run.csv") == render_xsv(results, ','));
  CHECK(read_file(dir / "run.scsv") == render_xsv(results, ';'));
  CHECK(read_file(dir / "run.tex") == render_latex(results));
  CHECK(contains(read_file(dir / "run.gbench.json"), "\"run_complete\": \"false\""));
  results = testing::synthetic_results();
  for (auto& w : writers) w->write(results, ctx);
  CHECK(read_file(dir / "run.json") == render_jmh_json(results, ctx));
  CHECK(read_file(dir / "run.csv") == render_xsv(results, ','));
  CHECK(contains(read_file(dir / "run.gbench.json"), "\"run_complete\": \"true\""));
  CHECK(entries_in(dir.path) == 5);  // no temporary file left behind
}

TEST_CASE("formats files: an existing file keeps its permissions, a symlink keeps pointing at it") {
  TempDir dir;
  std::ofstream(dir / "target.json") << "old";
  ::chmod((dir / "target.json").c_str(), 0640);
  fs::create_symlink("target.json", dir.path / "link.json");
  auto writers = make_writers("json", dir / "link.json");
  CHECK(writers[0]->path() == dir / "link.json");
  writers[0]->write(testing::synthetic_results(), testing::synthetic_context());
  CHECK(fs::is_symlink(dir.path / "link.json"));
  CHECK(read_file(dir / "target.json").rfind("[\n    {", 0) == 0);
  struct stat st {};
  REQUIRE(::stat((dir / "target.json").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
}

TEST_CASE("formats files: a FIFO target is written in place, never renamed over") {
  TempDir dir;
  const std::string fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  CHECK(check_writable(fifo) == fifo);
  write_atomically(fifo, "through the pipe\n");
  char buf[64] = {};
  CHECK(::read(reader, buf, sizeof buf - 1) == 17);
  CHECK(std::string(buf) == "through the pipe\n");
  ::close(reader);
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
}

TEST_CASE("formats files: a concurrent reader sees the old or the new content, never a mix") {
  TempDir dir;
  const std::string path = dir / "atomic.json";
  const std::string a(1 << 20, 'a'), b(1 << 20, 'b');
  write_atomically(path, a);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int i = 0; i < 60; ++i) write_atomically(path, i % 2 == 0 ? b : a);
    done = true;
  });
  int reads = 0, torn = 0;
  while (!done || reads < 10) {
    const std::string seen = read_file(path);
    ++reads;
    if (seen != a && seen != b) ++torn;
  }
  writer.join();
  CHECK(torn == 0);
  CHECK(entries_in(dir.path) == 1);
}

TEST_CASE("formats files: SIGKILL in the middle of writing leaves the previous complete file") {
  TempDir dir;
  const std::string path = dir / "killed.json";
  const std::string a(4 << 20, 'a'), b(4 << 20, 'b');
  write_atomically(path, a);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    try {
      for (int i = 0;; ++i) write_atomically(path, i % 2 == 0 ? b : a);
    } catch (...) {
    }
    ::_exit(1);
  }
  // Wait until the child has replaced the file at least once (a new inode), then kill it
  // wherever it is: in write(), fsync() or between rename() calls.
  struct stat first {};
  REQUIRE(::stat(path.c_str(), &first) == 0);
  // (The bound only turns a broken writer, one that never renames, into a failure instead of a hang.)
  bool replaced = false;
  for (int polls = 0; polls < 120'000 && !replaced; ++polls) {
    struct stat now {};
    replaced = ::stat(path.c_str(), &now) == 0 && now.st_ino != first.st_ino;
    int early = 0;
    if (::waitpid(child, &early, WNOHANG) == child) FAIL("the writing child exited on its own");
    if (!replaced) ::usleep(1000);
  }
  if (!replaced) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    FAIL("the file was never replaced by rename");
  }
  ::usleep(20000);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  const std::string seen = read_file(path);
  CHECK((seen == a || seen == b));
}

// SPDX-License-Identifier: MIT
// cmh::host::main_entry(): the benchmark executable's entry point. In a fork it is the
// worker; on the host it checks everything that can be checked before anything
// runs (command line, profilers, plan, result files, -o, the run lock) so that
// bad input exits 1 having started nothing, then hands over to the run loop.
#include <cmh/detail/main_entry.hpp>

#include <cmh/allocator_api.hpp>
#include <cmh/common/self_executable.hpp>
#include <cmh/registry.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>

#include "cli/command_line.hpp"
#include "fork/adopted.hpp"
#include "fork/fork_args.hpp"
#include "cli/flags.hpp"
#include "worker/worker.hpp"
#include "fork/start_bound.hpp"
#include "formats/result_format.hpp"
#include "host/listing.hpp"
#include "host/planner.hpp"
#include "host/process_setup.hpp"
#include "host/report_stream.hpp"
#include "host/run_lock.hpp"
#include "host/run_loop.hpp"
#include "host/sharding.hpp"
#include "host/signals.hpp"
#include "host/strict_check.hpp"
#include "model/run_context.hpp"
#include "profiling/profiler_factory.hpp"
#include "report/summary_table.hpp"
#include "report/text_report.hpp"

namespace cmh {

namespace {

int command_line_error(std::string_view message) {
  std::fprintf(stderr, "Error parsing command line:\n %.*s\n", static_cast<int>(message.size()), message.data());
  return 1;
}

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
}

/// -h, -l, -lp, -lrf, -lprof and -prof name:help: print, and say so.
std::optional<int> handle_informational(const cli::CommandLine& cl) {
  if (cl.help) {
    print(cli::help_text(cl.program));
    return 0;
  }
  if (cl.list_profilers) {
    print(profiling::profiler_list_text());
    return 0;
  }
  if (cl.list_formats) {
    print(formats::list_formats());
    return 0;
  }
  if (cl.list || cl.list_with_params) {
    print(cl.list_with_params ? host::list_benchmarks_with_params(cl, registered_benchmarks())
                              : host::list_benchmarks(cl, registered_benchmarks()));
    return 0;
  }
  for (const auto& spec : cl.profilers) {
    const auto request = profiling::resolve_profiler(spec);
    if (request.help) {
      print(profiling::profiler_help_text(*request.info));
      return 0;
    }
  }
  return std::nullopt;
}

/// Allocator fork arguments (-Xmx, ...) do nothing in an executable without the
/// bundled allocator (NO_ALLOCATOR, SANITIZE): refuse them rather than ignore them.
std::optional<std::string> allocator_args_problem(const std::vector<host::PlannedRun>& plans) {
  if (linked_allocator().options_string != nullptr) return std::nullopt;
  for (const auto& plan : plans) {
    if (plan.params.forks == 0 && plan.params.warmup_forks == 0) continue;
    const auto settings = forking::parse_fork_args(plan.params.fork_args);
    if (!settings.allocator_flags.empty())
      return "Fork argument " + settings.allocator_flags.front() + " (" + report::benchmark_label(plan.params) +
             "): this executable is built without cmh's bundled allocator (NO_ALLOCATOR or SANITIZE), the only "
             "one that understands it";
  }
  return std::nullopt;
}

/// -o and a result file naming the same regular file (or the same new path).
bool same_regular_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0, b_exists = ::stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists != b_exists) return false;
  std::error_code ec1, ec2;
  const auto ca = std::filesystem::weakly_canonical(a, ec1), cb = std::filesystem::weakly_canonical(b, ec2);
  return !ec1 && !ec2 && ca == cb;
}

/// No benchmark matched the command line: say so (with -v EXTRA, list them all).
int no_matching_benchmarks(const cli::CommandLine& cl) {
  std::fputs("No matching benchmarks. Miss-spelled regexp?\n", stderr);
  if (cl.verbosity == report::Verbosity::extra) {
    std::fputs(host::list_benchmarks(cli::CommandLine{}, registered_benchmarks()).c_str(), stderr);
  } else {
    std::fputs("Use EXTRA verbose mode to debug the pattern matching.\n", stderr);
  }
  return 1;
}

/// Parses the command line, checks its profilers and plans its runs (this shard's part
/// with -shard). A status: the process ends here (-h and the lists, bad input, nothing to run).
std::optional<int> plan_from_command_line(int argc, char** argv, cli::CommandLine& cl,
                                          std::vector<host::PlannedRun>& plans) {
  std::optional<cli::Shard> shard;
  try {
    cl = cli::parse_command_line(argc, argv);
    if (auto status = handle_informational(cl)) return *status;
    profiling::validate_profiler_specs(cl.profilers);
    plans = host::plan_runs(cl, registered_benchmarks());
    shard = host::requested_shard(cl);
  } catch (const cli::CommandLineError& e) {
    return command_line_error(e.what());
  } catch (const ProfilerError& e) {
    return command_line_error(e.what());
  }
  if (plans.empty()) return no_matching_benchmarks(cl);
  if (shard) {
    const std::size_t all = plans.size();
    plans = host::shard_runs(plans, *shard);
    std::fprintf(stderr, "Shard %d/%d: %zu of %zu benchmark runs.\n", shard->index, shard->total, plans.size(), all);
    if (plans.empty()) return 0;  // more parts than runs: this one has nothing to do
  }
  return std::nullopt;
}

/// -rf / -rff: the result files' writers. A status: the format or file is refused.
std::optional<int> make_result_writers(const cli::CommandLine& cl, host::RunSetup& setup) {
  if (!cl.result_format && !cl.result_file) return std::nullopt;
  try {
    setup.writers = formats::make_writers(cl.result_format.value_or(""), cl.result_file.value_or(""));
  } catch (const formats::FormatError& e) {
    return command_line_error(e.what());
  }
  return std::nullopt;
}

/// Where the report goes: -o's file (never a result file's) or standard output.
std::optional<int> open_report(const cli::CommandLine& cl, const host::RunSetup& setup,
                               std::optional<host::ReportStream>& report_stream) {
  if (!cl.output_file) {
    report_stream.emplace(STDOUT_FILENO, false, "standard output");
    return std::nullopt;
  }
  for (const auto& w : setup.writers)
    if (same_regular_file(*cl.output_file, w->target()))
      return command_line_error("Options -o and -rff name the same file, " + *cl.output_file +
                                ": the result file would replace the report");
  const int fd = ::open(cl.output_file->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return command_line_error("Option -o: cannot write " + *cl.output_file + ": " + std::strerror(errno));
  report_stream.emplace(fd, true, *cl.output_file);
  return std::nullopt;
}

/// The run lock, unless -Dcmh.ignoreLock=true; false (having said why) when it is taken.
bool take_run_lock(const cli::CommandLine& cl, std::optional<host::RunLock>& lock) {
  if (cl.ignore_lock) return true;
  std::string error;
  lock = host::RunLock::acquire(error);
  if (!lock) std::fprintf(stderr, "%s\n", error.c_str());
  return lock.has_value();
}

/// A reader that went away (EPIPE) only stopped the printing; any other failure
/// lost (part of) the report, which a zero exit status would hide.
int close_report(host::ReportStream& report_stream, int status) {
  if (const int err = report_stream.close(); err != 0 && err != EPIPE) {
    std::fprintf(stderr, "ERROR: the report could not be written to %s: %s\n", report_stream.name().c_str(),
                 std::strerror(err));
    if (status == 0) status = 2;
  }
  return status;
}

int run_host(int argc, char** argv) {
  const Nanos startup = forking::process_age();  // what each fork repeats: its start-up bound scales with it
  host::ensure_standard_fds();
  host::ignore_sigpipe();
  cli::CommandLine cl;
  host::RunSetup setup;
  if (auto status = plan_from_command_line(argc, argv, cl, setup.plans)) return *status;
  // Before -o or a result file is touched: a refused run leaves nothing behind.
  if (auto status = host::refuse_if_strict(cl)) return *status;
  setup.command_line = &cl;
  if (auto status = make_result_writers(cl, setup)) return *status;
  if (auto problem = allocator_args_problem(setup.plans)) return command_line_error(*problem);
  std::optional<host::ReportStream> report_stream;
  if (auto status = open_report(cl, setup, report_stream)) return *status;
  std::FILE* report_file = report_stream->file();
  std::optional<host::RunLock> lock;
  if (!take_run_lock(cl, lock)) return 1;

  host::install_signal_handlers();
  // What a fork orphans comes back to the host, which kills it when the fork ends.
  forking::become_subreaper();
  setup.context = model::detect_run_context();
  if (cl.quick) setup.context.warnings.emplace_back(cli::quick_run_note());
  host::add_strict_warnings(cl, setup.context);
  setup.executable = common::self_executable_path();
  setup.host_startup = startup;
  // With -o everything goes to the file, the forks' stderr included.
  report::TextReport report(report_file, setup.context, cl.verbosity, cl.output_file ? report_file : stderr);
  setup.output = &report;
  return close_report(*report_stream, host::run_benchmarks(setup));
}

}  // namespace

int host::main_entry(int argc, char** argv) {
  if (auto status = forking::maybe_run_worker(argc, argv)) return *status;
  try {
    return run_host(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}

}  // namespace cmh

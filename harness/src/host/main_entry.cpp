// SPDX-License-Identifier: MIT
// cmh::run_main(): the benchmark executable's entry point. In a fork it is the
// worker; on the host it checks everything that can be checked before anything
// runs (command line, profilers, plan, result files, -o, the run lock) so that
// bad input exits 1 having started nothing, then hands over to the run loop.
#include "host/main_entry.hpp"

#include <cmh/registry.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "cli/command_line.hpp"
#include "cli/flags.hpp"
#include "fork/fork_runner.hpp"
#include "formats/result_format.hpp"
#include "host/listing.hpp"
#include "host/planner.hpp"
#include "host/run_lock.hpp"
#include "host/run_loop.hpp"
#include "host/signals.hpp"
#include "model/run_context.hpp"
#include "profiling/profiler_factory.hpp"
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

std::string this_executable() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
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

int run_host(int argc, char** argv) {
  cli::CommandLine cl;
  std::vector<host::PlannedRun> plans;
  try {
    cl = cli::parse_command_line(argc, argv);
    if (auto status = handle_informational(cl)) return *status;
    profiling::validate_profiler_specs(cl.profilers);
    plans = host::plan_runs(cl, registered_benchmarks());
  } catch (const cli::CommandLineError& e) {
    return command_line_error(e.what());
  } catch (const ProfilerError& e) {
    return command_line_error(e.what());
  }
  if (plans.empty()) {
    std::fputs("No matching benchmarks. Miss-spelled regexp?\n", stderr);
    if (cl.verbosity == report::Verbosity::extra) {
      std::fputs(host::list_benchmarks(cli::CommandLine{}, registered_benchmarks()).c_str(), stderr);
    } else {
      std::fputs("Use EXTRA verbose mode to debug the pattern matching.\n", stderr);
    }
    return 1;
  }

  host::RunSetup setup;
  setup.command_line = &cl;
  setup.plans = std::move(plans);
  if (cl.result_format || cl.result_file) {
    try {
      setup.writers = formats::make_writers(cl.result_format.value_or(""), cl.result_file.value_or(""));
    } catch (const formats::FormatError& e) {
      return command_line_error(e.what());
    }
  }
  std::FILE* report_file = stdout;
  if (cl.output_file) {
    report_file = std::fopen(cl.output_file->c_str(), "w");
    if (!report_file)
      return command_line_error("Option -o: cannot write " + *cl.output_file + ": " + std::strerror(errno));
  }

  std::optional<host::RunLock> lock;
  if (!cl.ignore_lock) {
    std::string error;
    lock = host::RunLock::acquire(error);
    if (!lock) {
      std::fprintf(stderr, "%s\n", error.c_str());
      if (report_file != stdout) std::fclose(report_file);
      return 1;
    }
  }

  host::install_signal_handlers();
  setup.context = model::detect_run_context();
  if (cl.quick) setup.context.warnings.emplace_back(cli::quick_run_note());
  setup.executable = this_executable();
  // With -o everything goes to the file, the forks' stderr included.
  report::TextReport report(report_file, setup.context, cl.verbosity, report_file == stdout ? stderr : report_file);
  setup.output = &report;
  const int status = host::run_benchmarks(setup);
  std::fflush(report_file);
  if (report_file != stdout) std::fclose(report_file);
  return status;
}

}  // namespace

int run_main(int argc, char** argv) {
  if (auto status = forking::maybe_run_worker(argc, argv)) return *status;
  try {
    return run_host(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}

}  // namespace cmh

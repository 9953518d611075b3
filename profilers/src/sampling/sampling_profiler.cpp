// SPDX-License-Identifier: MIT
// SamplingProfiler: the fork side (window-gated sampling, the sample file) and the host
// side (the files of all forks, the report) of perfasm and flame (see the header).
#include "sampling/sampling_profiler.hpp"

#include "sampling/profile_builder.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cmh::profilers::sampling {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

void choose_sampled_events(const std::vector<std::string>& names, ProfilerOptionReader& reader,
                           SamplingSettings& settings) {
  if (names.size() > kMaxEvents) reader.fail("at most " + std::to_string(kMaxEvents) + " events");
  // "not permitted" is no reason to stop the run: the benchmark runs, and the fork says why in one line.
  auto blocking = [](const SampledEvent& e) {
    SamplerConfig probe;
    probe.events = {e};
    auto reason = WindowSampler::probe(probe);
    return reason && reason->find("not permitted") == std::string::npos ? reason : std::nullopt;
  };
  for (const auto& n : names) {
    const SampledEvent* e = find_sampled_event(n);
    if (e == nullptr) {
      std::string known;
      for (const auto& k : sampled_event_table()) known += (known.empty() ? "" : ", ") + k.name;
      reader.fail("unknown event '" + n + "' (known: " + known + ")");
    }
    if (auto reason = blocking(*e)) reader.fail("event " + n + " cannot be sampled here: " + *reason);
    settings.sampler.events.push_back(*e);
  }
  if (!settings.sampler.events.empty()) return;
  const SampledEvent& cycles = *find_sampled_event("cycles");
  if (auto reason = blocking(cycles)) {
    settings.sampler.events = {*find_sampled_event("cpu-clock")};
    settings.event_note = "cpu-clock, a software timer, because cycles cannot be sampled here (" + *reason +
                          "); it shows where the time goes, with skid, and costs are in ns";
  } else {
    settings.sampler.events = {cycles};
  }
}

std::optional<std::string> sampling_limitation() {
  SamplerConfig probe;
  probe.events = {*find_sampled_event("cycles")};
  const auto cycles = WindowSampler::probe(probe);
  if (!cycles) return std::nullopt;
  probe.events = {*find_sampled_event("cpu-clock")};
  if (auto clock = WindowSampler::probe(probe))
    return "sampling is " + *clock + "; a run goes on without it and says so in one line";
  return "cycles cannot be sampled here (" + *cycles + "): cpu-clock samples instead";
}

std::string file_stem(const BenchmarkParams& bp) {
  std::string stem = bp.benchmark;
  for (const auto& [k, v] : bp.params) stem += "-" + k + "=" + v;
  for (char& c : stem)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '=' || c == '-')) c = '_';
  return stem;
}

std::string SamplingProfiler::environment_variable(const std::string& profiler) {
  std::string name = "CMH_SAMPLES_";
  for (char c : profiler) name += static_cast<char>(std::isalnum(static_cast<unsigned char>(c)) ? std::toupper(c) : '_');
  return name;
}

SamplingProfiler::SamplingProfiler(SamplingSettings settings) : settings_(std::move(settings)) {
  if (const char* file = std::getenv(environment_variable(settings_.profiler).c_str())) {
    // In a fork: the sampler (and its drain thread) exists before the trial's threads.
    fork_file_ = file;
    if (settings_.allocations)
      alloc_sampler_ = std::make_unique<AllocationSampler>(settings_.alloc_every);
    else
      sampler_ = std::make_unique<WindowSampler>(settings_.sampler);
  }
}

SamplingProfiler::~SamplingProfiler() {
  if (!fork_file_.empty()) {
    finish_fork();
    write_fork_file();
  }
  if (!temp_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(temp_dir_, ec);
  }
}

void SamplingProfiler::before_iteration(const BenchmarkParams&, const IterationParams& ip) {
  if (ip.kind != IterationKind::measurement || profile_.unavailable) return;
  if (settings_.allocations) {
    if (auto reason = AllocationSampler::unavailable_reason()) {
      profile_.unavailable = "-prof " + settings_.profiler + ":alloc: not run: " + *reason;
      return;
    }
    if (!alloc_sampler_) alloc_sampler_ = std::make_unique<AllocationSampler>(settings_.alloc_every);
    window_start_ = std::chrono::steady_clock::now();
    alloc_sampler_->start();
    sampling_ = true;
    return;
  }
  if (!sampler_) sampler_ = std::make_unique<WindowSampler>(settings_.sampler);
  // Threads a benchmark started since the last iteration get their events too.
  if (auto reason = sampler_->attach_threads()) {
    profile_.unavailable = "-prof " + settings_.profiler + ": not run: sampling is " +
                           (reason->find("not permitted") != std::string::npos ? "" : "not possible here: ") + *reason;
    return;
  }
  window_start_ = std::chrono::steady_clock::now();
  sampler_->start();
  sampling_ = true;
}

std::vector<ScalarResult> SamplingProfiler::after_iteration(const BenchmarkParams&, const IterationParams&,
                                                            const IterationResult& result) {
  if (!sampling_) return {};
  if (alloc_sampler_) alloc_sampler_->stop();
  else sampler_->stop();
  sampling_ = false;
  fork_.window_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - window_start_).count();
  fork_.ops += result.all_ops;
  ++fork_.iterations;
  return {};
}

void SamplingProfiler::finish_fork() {
  if (alloc_sampler_) {
    alloc_sampler_->stop();
    sampling_ = false;
    if (fork_.iterations > 0) {
      profile_.events = {{"allocated bytes", "B", false}};
      profile_.stacks = "unwind tables (_Unwind_Backtrace) in the allocator's sampling hook";
      profile_.frequency = 0;
      alloc_sampler_->add_to(profile_, fork_);
      fork_.fork = static_cast<int>(profile_.forks.size()) + 1;
      profile_.forks.push_back(std::move(fork_));
    }
    fork_ = ForkProfile{};
    alloc_sampler_.reset();
    return;
  }
  if (!sampler_) return;
  if (sampling_) {
    sampler_->stop();
    sampling_ = false;
  }
  if (fork_.iterations > 0) {
    const SamplerConfig& config = sampler_->config();
    profile_.events.clear();
    for (const auto& e : config.events) profile_.events.push_back({e.name, e.period_unit, e.hardware});
    profile_.stacks = config.stacks == StackMode::dwarf            ? "dwarf"
                      : config.stacks == StackMode::frame_pointers ? "frame pointers"
                                                                   : "none";
    profile_.frequency = config.frequency;
    profile_.user_only = sampler_->user_only();
    profile_.precise = sampler_->precise();
    add_samples(*sampler_, profile_, fork_);
    fork_.fork = static_cast<int>(profile_.forks.size()) + 1;
    profile_.forks.push_back(std::move(fork_));
  }
  fork_ = ForkProfile{};
  sampler_.reset();
}

void SamplingProfiler::write_fork_file() const {
  // Written whole, then renamed: the host never reads half a file.
  const std::string tmp = fork_file_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << profile_to_json(profile_);
    if (!out) return;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, fork_file_, ec);
}

std::vector<std::string> SamplingProfiler::extra_fork_args(const BenchmarkParams&) {
  if (temp_dir_.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/cmh-" + settings_.profiler + "-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("cannot create a directory for the samples: " + templ);
    temp_dir_ = templ;
  }
  static int counter = 0;
  pending_ = temp_dir_ + "/fork-" + std::to_string(++counter) + ".json";
  return {"-D" + environment_variable(settings_.profiler) + "=" + pending_};
}

std::vector<ScalarResult> SamplingProfiler::after_trial(const BenchmarkParams&, const ForkResult& fork, long,
                                                        std::string_view, std::string_view) {
  const std::string file = std::exchange(pending_, std::string());
  if (file.empty()) return {};
  const std::string text = read_text(file);
  std::error_code ec;
  std::filesystem::remove(file, ec);
  if (fork.warmup_fork) return {};  // JMH drops warmup forks' results; so are their samples
  if (text.empty()) {
    if (!fork.failure) ++forks_without_file_;
    return {};
  }
  append_forks(profile_, profile_from_json(text));
  return {};
}

std::vector<ProfilerReport> SamplingProfiler::benchmark_reports(const BenchmarkRunResult& run) {
  if (fork_file_.empty()) finish_fork();  // -f 0: this instance sampled in the host
  ProfilerReport notice;
  if (profile_.unavailable) {
    notice.notice = *profile_.unavailable;
    return {notice};
  }
  if (profile_.forks.empty()) {
    if (run.failed()) return {};
    notice.notice = "-prof " + settings_.profiler + ": no samples: " +
                    (forks_without_file_ > 0 ? std::string("the forks wrote no sample file")
                                             : std::string("no measurement iteration was sampled"));
    return {notice};
  }
  std::vector<ProfilerReport> out = report(profile_, run);
  profile_ = Profile{};
  return out;
}

}  // namespace cmh::profilers::sampling

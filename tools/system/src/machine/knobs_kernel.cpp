// SPDX-License-Identifier: MIT
// The memory and kernel knobs: transparent huge pages, NUMA balancing, ASLR, the
// perf_event limits the profilers depend on, and the NMI watchdog.
#include <cerrno>
#include <string>

#include "machine/knob_parts.hpp"

namespace cmh::machine {

namespace {

using namespace parts;

Knob kernel_knob(std::string id, std::string name, std::string wanted, std::string why) {
  return make_knob("Memory and kernel", std::move(id), std::move(name), std::move(wanted), std::move(why));
}

/// A sysctl holding one integer: the reading, or the knob marked unknown.
std::optional<long> integer_file(const SysTree& tree, const std::string& path, Knob& k) {
  const FileRead r = tree.read(path);
  if (!r.content) {
    set_unknown(k, path + ": " + r.reason());
    return std::nullopt;
  }
  const std::string text = first_line(*r.content);
  try {
    std::size_t used = 0;
    const long v = std::stol(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  set_unknown(k, path + ": \"" + text + "\" is not a number");
  return std::nullopt;
}

void add_thp(const SysTree& tree, std::vector<Knob>& out) {
  const std::string base = "/sys/kernel/mm/transparent_hugepage/";
  {
    Knob k = kernel_knob("memory.thp", "transparent huge pages", "madvise or never",
                         "With \"always\", khugepaged turns a benchmark's memory into huge pages in the background at "
                         "a moment of its choosing: TLB misses, and so scores, change in the middle of a run.");
    const FileRead r = tree.read(base + "enabled");
    if (!r.content) {
      set_unknown(k, base + "enabled: " + r.reason());
    } else {
      const std::string word = selected_word(*r.content);
      set_reading(k, word, word, word == "madvise" || word == "never");
      k.writes = {{base + "enabled", "madvise"}};
    }
    out.push_back(std::move(k));
  }
  {
    Knob k = kernel_knob("memory.thp_defrag", "huge page defragmentation", "not always",
                         "With \"always\", an allocation that could use a huge page stops to compact memory first: "
                         "an occasional allocation takes milliseconds.");
    const FileRead r = tree.read(base + "defrag");
    if (!r.content) {
      set_unknown(k, base + "defrag: " + r.reason());
    } else {
      const std::string word = selected_word(*r.content);
      set_reading(k, word, word, word != "always");
      k.writes = {{base + "defrag", "madvise"}};
    }
    out.push_back(std::move(k));
  }
}

void add_numa_balancing(const SysTree& tree, std::vector<Knob>& out) {
  const std::string path = "/proc/sys/kernel/numa_balancing";
  Knob k = kernel_knob("kernel.numa_balancing", "automatic NUMA balancing", "0 (off)",
                       "The kernel unmaps pages to see which node touches them and migrates them: page faults and "
                       "copies in the measured loop, and it moves memory that cmh's allocator placed on purpose.");
  const FileRead r = tree.read(path);
  if (!r.content && r.error == ENOENT) {
    // Kernels built without CONFIG_NUMA_BALANCING have no such file: it is off.
    set_reading(k, "absent (the kernel has no NUMA balancing)", "absent", true);
  } else if (const auto v = integer_file(tree, path, k)) {
    const char* meaning = *v == 0 ? "off" : *v == 1 ? "on" : *v == 2 ? "memory tiering" : "on, with memory tiering";
    set_reading(k, std::to_string(*v) + " (" + meaning + ")", std::to_string(*v), *v == 0);
    k.writes = {{path, "0"}};
  }
  out.push_back(std::move(k));
}

void add_aslr(const SysTree& tree, std::vector<Knob>& out) {
  const std::string path = "/proc/sys/kernel/randomize_va_space";
  Knob k = kernel_knob("kernel.aslr", "address space layout randomization", "2 (full)",
                       "Each fork then gets another memory layout, so the spread across forks includes alignment "
                       "effects instead of one layout's luck being reported as the score.");
  if (const auto v = integer_file(tree, path, k)) {
    const char* meaning = *v == 0 ? "off" : *v == 1 ? "partial" : "full";
    set_reading(k, std::to_string(*v) + " (" + meaning + ")", std::to_string(*v), *v == 2);
    k.writes = {{path, "2"}};
  }
  out.push_back(std::move(k));
}

void add_perf_paranoid(const SysTree& tree, std::vector<Knob>& out) {
  const std::string path = "/proc/sys/kernel/perf_event_paranoid";
  Knob k = kernel_knob("kernel.perf_event_paranoid", "perf_event_paranoid", "2 or lower",
                       "Above 2 (Debian's default is 3) a normal user cannot open any performance counter, so "
                       "-prof perf and the sampling profilers only work as root.");
  if (const auto v = integer_file(tree, path, k)) {
    const char* meaning = *v <= -1  ? "everything allowed"
                          : *v == 0 ? "CPU-wide events allowed"
                          : *v == 1 ? "own processes, user and kernel"
                          : *v == 2 ? "own processes, user space only"
                                    : "no counters for normal users";
    set_reading(k, std::to_string(*v) + " (" + meaning + ")", std::to_string(*v), *v <= 2);
    k.writes = {{path, "2"}};
  }
  out.push_back(std::move(k));
}

void add_max_sample_rate(const SysTree& tree, std::vector<Knob>& out) {
  const std::string path = "/proc/sys/kernel/perf_event_max_sample_rate";
  Knob k = kernel_knob("kernel.perf_event_max_sample_rate", "perf_event_max_sample_rate",
                       "at least 1000 per second; never lowered",
                       "The kernel's cap on samples per second. pyperf sets it to 1, which leaves a sampling "
                       "profiler one sample a second; cmh's sample at up to 1 kHz.");
  if (const auto v = integer_file(tree, path, k)) {
    set_reading(k, std::to_string(*v) + " per second", std::to_string(*v), *v >= 1000);
    // Raised to the kernel's default; tune never writes a lower value.
    if (*v < 100000) k.writes = {{path, "100000"}};
  }
  out.push_back(std::move(k));
}

void add_nmi_watchdog(const SysTree& tree, std::vector<Knob>& out) {
  const std::string path = "/proc/sys/kernel/nmi_watchdog";
  Knob k = kernel_knob("kernel.nmi_watchdog", "NMI watchdog", "0 (off)",
                       "On x86 the watchdog holds one hardware counter on every CPU: -prof perf has one counter "
                       "fewer and multiplexes its events sooner, and the watchdog's interrupts land in the measured "
                       "loop.");
  if (const auto v = integer_file(tree, path, k)) {
    set_reading(k, std::to_string(*v) + (*v == 0 ? " (off)" : " (on)"), *v == 0 ? "off" : "on", *v == 0);
    k.writes = {{path, "0"}};
  }
  out.push_back(std::move(k));
}

}  // namespace

void add_kernel_knobs(const SysTree& tree, std::vector<Knob>& out) {
  add_thp(tree, out);
  add_numa_balancing(tree, out);
  add_aslr(tree, out);
  add_perf_paranoid(tree, out);
  add_max_sample_rate(tree, out);
  add_nmi_watchdog(tree, out);
}

}  // namespace cmh::machine

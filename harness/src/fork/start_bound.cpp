// SPDX-License-Identifier: MIT
// The fork start-up bound (see start_bound.hpp).
//
// Why these parts hold on a loaded CI runner or an emulated guest: every part that
// depends on the machine is measured on it, in this run, rather than assumed. The
// host's own start-up is the same image starting on the same machine under the same
// load, so a machine ten times slower (TCG) gets a base ten times longer; the page
// population rate is measured with 4 KiB pages (huge pages would only make the fork
// faster than the probe). Each measured part then gets a factor of ten: the probe
// may have run in a quiet moment and the fork in a busy one (two CPU hogs on two
// CPUs halve the fork's share), a --membind fork touches remote memory, a large
// heap may need the kernel to reclaim page cache first. A fork that still needs
// longer is named with the bound it missed, and -forkStartTimeout raises it.
#include "fork/start_bound.hpp"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fork/fork_args.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older headers lack the name
#endif

namespace cmh::forking {

namespace {

constexpr Nanos kStackFloor = std::chrono::seconds(10);
constexpr std::size_t kProbeBytes = std::size_t{32} << 20;
constexpr Nanos kTenth = std::chrono::milliseconds(100);

/// a * k, saturating at a century (the command line's "forever").
Nanos times(Nanos a, Nanos::rep k) {
  constexpr Nanos kCap = std::chrono::hours(24 * 36500);
  return a >= kCap / k ? kCap : a * k;
}

/// Up to whole seconds: messages then read "within 5 s", "within 20 s".
Nanos ceil_seconds(Nanos t) { return std::chrono::duration_cast<Nanos>(std::chrono::ceil<std::chrono::seconds>(t)); }

Nanos saturating_sum(Nanos a, Nanos b) { return a > Nanos::max() - b ? Nanos::max() : a + b; }

/// Up to the next tenth of a second, so that messages read "0.6 s", not "613.2 ms".
Nanos ceil_tenth(Nanos t) {
  if (t <= Nanos(0)) return Nanos(0);
  if (t >= Nanos::max() - kTenth) return t;
  return (t + kTenth - Nanos(1)) / kTenth * kTenth;
}

/// "5 s", "0.6 s", "12.5 s", "50 ms" (below a tenth: milliseconds, rounded up).
std::string seconds_text(Nanos t) {
  char buf[64];
  if (t < kTenth) {
    std::snprintf(buf, sizeof buf, "%lld ms", static_cast<long long>((t.count() + 999'999) / 1'000'000));
  } else if (t.count() % 1'000'000'000 == 0) {
    std::snprintf(buf, sizeof buf, "%lld s", static_cast<long long>(t.count() / 1'000'000'000));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f s", std::ceil(static_cast<double>(t.count()) / 1e8) / 10);
  }
  return buf;
}

std::string bytes_text(std::uint64_t bytes) {
  char buf[64];
  if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0)
    std::snprintf(buf, sizeof buf, "%llu GiB", static_cast<unsigned long long>(bytes >> 30));
  else if (bytes >= (std::uint64_t{1} << 20))
    std::snprintf(buf, sizeof buf, "%llu MiB", static_cast<unsigned long long>((bytes + (1 << 20) - 1) >> 20));
  else
    std::snprintf(buf, sizeof buf, "%llu KiB", static_cast<unsigned long long>((bytes + 1023) >> 10));
  return buf;
}

/// When the rate could not be measured: a slow machine's (an emulated guest backs
/// 100-200 MiB/s; this 2-vCPU VM 1-2 GiB/s), before the safety factor.
constexpr double kFallbackRate = 128.0 * (1 << 20);

double measure_population_rate() {
  void* p = ::mmap(nullptr, kProbeBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return 0;
  (void)::madvise(p, kProbeBytes, MADV_NOHUGEPAGE);  // 4 KiB pages: the slow case
  const auto start = std::chrono::steady_clock::now();
  if (::madvise(p, kProbeBytes, MADV_POPULATE_WRITE) != 0) {
    // Before Linux 5.14: a write per page, as the allocator's own fallback does.
    const long page = ::sysconf(_SC_PAGESIZE);
    auto* bytes = static_cast<volatile char*>(p);
    for (std::size_t off = 0; off < kProbeBytes; off += static_cast<std::size_t>(page > 0 ? page : 4096))
      bytes[off] = 1;
  }
  const auto took = std::chrono::steady_clock::now() - start;
  ::munmap(p, kProbeBytes);
  const double seconds = std::chrono::duration<double>(took).count();
  return seconds > 0 ? static_cast<double>(kProbeBytes) / seconds : 0;
}

}  // namespace

Nanos StartBound::total() const { return saturating_sum(base, pretouch); }

std::string StartBound::describe() const {
  std::string text = seconds_text(base);
  if (pretouch > Nanos(0))
    text += " + " + seconds_text(pretouch) + " to pre-touch its " + bytes_text(pretouch_bytes) + " -Xms heap";
  return text;
}

std::string StartBound::explain() const {
  std::string text = "# Fork start-up bound (to its handshake): " + seconds_text(total());
  const std::string source =
      !automatic ? " (-forkStartTimeout)"
                 : " (automatic; the host started in " + seconds_text(host_startup) +
                       (wrapped ? ", x " + std::to_string(kWrappedMultiple) + " under a wrapper)" : ")");
  if (pretouch == Nanos(0)) return text + source;
  char rate[64];
  if (population_rate > 0)
    std::snprintf(rate, sizeof rate, "%.2f GiB/s measured here", population_rate / (1 << 30));
  else
    std::snprintf(rate, sizeof rate, "an assumed %.0f MiB/s", kFallbackRate / (1 << 20));
  return text + " = " + seconds_text(base) + source + " + " + seconds_text(pretouch) + " to pre-touch " +
         bytes_text(pretouch_bytes) + " of -Xms (" + rate + ", x " + std::to_string(kPretouchSafety) + ")";
}

StartBound start_bound(const StartBoundInputs& in) {
  StartBound b;
  b.automatic = !in.configured.has_value();
  b.host_startup = in.host_startup;
  b.wrapped = in.wrapped;
  if (in.configured) {
    b.base = *in.configured;
  } else {
    const Nanos startup = std::max(in.host_startup, Nanos(0));
    b.base = std::max(kStartFloor, ceil_seconds(times(startup, kStartupMultiple)));
    if (in.wrapped) b.base = times(b.base, kWrappedMultiple);
  }
  b.pretouch_bytes = in.pretouch_bytes;
  b.population_rate = in.population_rate;
  if (in.pretouch_bytes > 0) {
    const double rate = in.population_rate > 0 ? in.population_rate : kFallbackRate;
    const double seconds = static_cast<double>(in.pretouch_bytes) / rate * kPretouchSafety;
    constexpr double kCapSeconds = 36500.0 * 86400;
    const std::chrono::duration<double> allowance(std::min(seconds, kCapSeconds));
    b.pretouch = ceil_tenth(std::chrono::duration_cast<Nanos>(allowance));
  }
  return b;
}

StartBound fork_start_bound(std::optional<Nanos> configured, Nanos host_startup, bool wrapped,
                            const std::vector<std::pair<std::string, std::string>>& env_overrides) {
  const char* inherited = std::getenv("CMH_ALLOC");
  std::string cmh_alloc = inherited ? inherited : "";
  for (const auto& [name, value] : env_overrides)
    if (name == "CMH_ALLOC") cmh_alloc = value;
  StartBoundInputs in;
  in.configured = configured;
  in.host_startup = host_startup;
  in.wrapped = wrapped;
  in.pretouch_bytes = pretouch_bytes(cmh_alloc);
  if (in.pretouch_bytes > 0) in.population_rate = population_rate();
  return start_bound(in);
}

Nanos stack_time_limit(Nanos host_startup) {
  return std::max(kStackFloor, ceil_seconds(times(std::max(host_startup, Nanos(0)), kStartupMultiple)));
}

Nanos process_age() {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return Nanos(0);
  char buf[1024];
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  // Field 22, starttime, in clock ticks since boot; the fields count from after the
  // command name, which may itself hold blanks and parentheses.
  const char* p = std::strrchr(buf, ')');
  if (!p) return Nanos(0);
  unsigned long long start_ticks = 0;
  int field = 2;
  for (const char* q = p + 1; *q && field < 22; ++q) {
    if (*q == ' ') {
      ++field;
      if (field == 22) start_ticks = std::strtoull(q + 1, nullptr, 10);
    }
  }
  const long hz = ::sysconf(_SC_CLK_TCK);
  timespec now{};
  if (field != 22 || hz <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return Nanos(0);
  const long long now_ns = static_cast<long long>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
  const long long start_ns = static_cast<long long>(start_ticks) * (1'000'000'000 / hz);
  return Nanos(std::max(0LL, now_ns - start_ns));
}

double population_rate() {
  static const double rate = measure_population_rate();
  return rate;
}

std::uint64_t pretouch_bytes(std::string_view cmh_alloc) {
  std::optional<std::uint64_t> xms, xmx;
  bool pretouch = false;
  std::string allocator;
  std::size_t pos = 0;
  while (pos < cmh_alloc.size()) {
    const std::size_t start = cmh_alloc.find_first_not_of(" \t\n", pos);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(cmh_alloc.find_first_of(" \t\n", start), cmh_alloc.size());
    pos = end;
    // One flag at a time through the fork-argument parser: a bad one is skipped, as the
    // allocator skips it (with its own warning in the fork).
    try {
      const ForkSettings s = parse_fork_args({std::string(cmh_alloc.substr(start, end - start))});
      if (s.initial_heap) xms = s.initial_heap;
      if (s.max_heap) xmx = s.max_heap;
      if (s.always_pretouch) pretouch = *s.always_pretouch;
      if (!s.allocator.empty()) allocator = s.allocator;
    } catch (const ForkArgError&) {
    }
  }
  if (!pretouch || !xms || (!allocator.empty() && allocator != "cmh")) return 0;
  return xmx ? std::min(*xms, *xmx) : *xms;
}

}  // namespace cmh::forking

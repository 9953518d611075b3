// SPDX-License-Identifier: MIT
// Parser and printer of CMH_ALLOC (see options.hpp). Tokens are separated by blanks;
// sizes are an integer with an optional k/K, m/M or g/G suffix, as the JVM accepts.
#include "options.hpp"

#include <cstring>

#include "text.hpp"

namespace cmh::allocator {
namespace {

bool starts_with(const char* s, size_t n, const char* prefix) {
  size_t p = strlen(prefix);
  return n >= p && memcmp(s, prefix, p) == 0;
}

bool parse_size(const char* s, size_t n, uint64_t* out) {
  if (n == 0) return false;
  uint64_t v = 0;
  size_t i = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (v > (~uint64_t{0} - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  if (i == 0) return false;
  unsigned shift = 0;
  if (i < n) {
    switch (s[i]) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: return false;
    }
    if (++i != n) return false;
  }
  if (shift && v > (~uint64_t{0} >> shift)) return false;
  *out = v << shift;
  return true;
}

bool parse_ms(const char* s, size_t n, int64_t* out) {
  if (n == 0 || n > 12) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

void complain(void (*report)(const char*), const char* token, size_t n, const char* expected) {
  char line[512];
  TextBuffer text(line, sizeof(line));
  text.add("cmh-alloc: ignoring malformed option '").add(token, n < 200 ? n : 200)
      .add("' in CMH_ALLOC (expected ").add(expected).add("); using the default\n");
  report(line);
}

}  // namespace

Options parse_options(const char* text, void (*report)(const char* line)) {
  Options o;
  if (text == nullptr) return o;
  const char* p = text;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n') ++p;
    if (*p == '\0') break;
    const char* token = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') ++p;
    const size_t n = static_cast<size_t>(p - token);
    uint64_t size = 0;
    if (starts_with(token, n, "-Xmx")) {
      if (parse_size(token + 4, n - 4, &size) && size > 0)
        o.max_heap = size;
      else
        complain(report, token, n, "-Xmx<size> with size > 0, e.g. -Xmx512m");
    } else if (starts_with(token, n, "-Xms")) {
      if (parse_size(token + 4, n - 4, &size))
        o.initial_heap = size;
      else
        complain(report, token, n, "-Xms<size>, e.g. -Xms256m");
    } else if (n == 19 && memcmp(token, "-XX:+AlwaysPreTouch", 19) == 0) {
      o.always_pretouch = true;
    } else if (n == 19 && memcmp(token, "-XX:-AlwaysPreTouch", 19) == 0) {
      o.always_pretouch = false;
    } else if (n == 12 && memcmp(token, "-XX:+UseNUMA", 12) == 0) {
      o.use_numa = 1;
    } else if (n == 12 && memcmp(token, "-XX:-UseNUMA", 12) == 0) {
      o.use_numa = 0;
    } else if (n == 20 && (memcmp(token, "-XX:+BackgroundPurge", 20) == 0 || memcmp(token, "-XX:-BackgroundPurge", 20) == 0)) {
      o.background_purge = token[4] == '+';
    } else if (n == 10 && memcmp(token, "-Xlog:numa", 10) == 0) {
      o.log_numa = true;
    } else if (starts_with(token, n, "-XX:RegionSize=")) {
      bool ok = parse_size(token + 15, n - 15, &size) && size != 0 && (size & (size - 1)) == 0 &&
                size >= (uint64_t{1} << kMinRegionShift) && size <= (uint64_t{1} << kMaxRegionShift);
      if (ok)
        o.region_shift = static_cast<unsigned>(__builtin_ctzll(size));
      else
        complain(report, token, n, "-XX:RegionSize=<size>, a power of two from 1m to 32m");
    } else if (starts_with(token, n, "-XX:DecayTime=")) {
      int64_t ms = 0;
      if (parse_ms(token + 14, n - 14, &ms))
        o.decay_ms = ms;
      else
        complain(report, token, n, "-XX:DecayTime=<milliseconds>, an integer >= 0");
    } else if (starts_with(token, n, "-XX:Allocator=")) {
      // Read by the forwarding layer (forward.cpp).
    } else {
      char line[512];
      TextBuffer msg(line, sizeof(line));
      msg.add("cmh-alloc: ignoring unknown option '").add(token, n < 200 ? n : 200)
          .add("' in CMH_ALLOC (known: -Xmx -Xms -XX:[+-]AlwaysPreTouch -XX:[+-]UseNUMA "
               "-XX:RegionSize= -XX:DecayTime= -XX:[+-]BackgroundPurge -Xlog:numa)\n");
      report(line);
    }
  }
  if (o.max_heap != 0 && o.initial_heap > o.max_heap) {
    char line[256];
    TextBuffer msg(line, sizeof(line));
    msg.add("cmh-alloc: -Xms").add_size(o.initial_heap).add(" exceeds -Xmx").add_size(o.max_heap)
        .add("; using -Xms").add_size(o.max_heap).add('\n');
    report(line);
    o.initial_heap = o.max_heap;
  }
  return o;
}

void format_options(const Options& o, bool numa_on, unsigned region_shift, char* out,
                    size_t capacity) {
  TextBuffer text(out, capacity);
  if (o.max_heap) text.add("-Xmx").add_size(o.max_heap).add(' ');
  text.add("-Xms").add_size(o.initial_heap);
  text.add(o.always_pretouch ? " -XX:+AlwaysPreTouch" : " -XX:-AlwaysPreTouch");
  text.add(numa_on ? " -XX:+UseNUMA" : " -XX:-UseNUMA");
  text.add(" -XX:RegionSize=").add_size(uint64_t{1} << region_shift);
  text.add(" -XX:DecayTime=").add_uint(static_cast<uint64_t>(o.decay_ms));
  if (!o.background_purge) text.add(" -XX:-BackgroundPurge");
  if (o.log_numa) text.add(" -Xlog:numa");
}

const char* options_help() {
  return "Allocator options (environment variable CMH_ALLOC, or fork arguments):\n"
         "  -Xmx<size>             maximum heap; beyond it malloc returns NULL (ENOMEM),\n"
         "                         new throws std::bad_alloc (default: unlimited)\n"
         "  -Xms<size>             heap committed and NUMA-bound at start-up (default: 0)\n"
         "  -XX:+AlwaysPreTouch    touch the -Xms heap at start-up, one thread per node\n"
         "  -XX:+UseNUMA / -XX:-UseNUMA\n"
         "                         node-bound regions (default: on when the CPU and memory\n"
         "                         bindings allow it; explicit +UseNUMA reports why not)\n"
         "  -XX:RegionSize=<size>  region size, a power of two from 1m to 32m (default: 4m,\n"
         "                         smaller for a small -Xmx)\n"
         "  -XX:DecayTime=<ms>     free memory goes back to the OS after this long (1000)\n"
         "  -XX:-BackgroundPurge   no purge thread: only a thread's own periodic work returns\n"
         "                         its free pages (default: on once a second thread exists)\n"
         "  -Xlog:numa             print bytes allocated per node (total, local, remote) at\n"
         "                         exit and on every collection request (-gc true)\n"
         "  size = integer with optional k/K, m/M or g/G suffix\n";
}

}  // namespace cmh::allocator

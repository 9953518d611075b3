// SPDX-License-Identifier: MIT
// Parsing and validation of fork arguments (see fork_args.hpp). Node and CPU lists
// go through libnuma's own parsers (numa_parse_nodestring / numa_parse_cpustring),
// so "0-1", "all", "!0" and "+0" mean here exactly what they mean to numactl.
#include "fork/fork_args.hpp"

#include <numa.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string_view>

#include "fork/fork_runner.hpp"

namespace cmh::forking {

namespace {

constexpr std::string_view kVocabulary =
    "fork arguments are -Xmx<size>, -Xms<size>, -XX:+AlwaysPreTouch, -XX:-AlwaysPreTouch, "
    "-XX:+UseNUMA, -XX:-UseNUMA, -XX:RegionSize=<size>, -XX:DecayTime=<ms>, -Xlog:numa, "
    "-XX:+BackgroundPurge, -XX:-BackgroundPurge, "
    "-XX:Allocator=cmh|glibc|jemalloc|tcmalloc|mimalloc|<path.so>, --cpunodebind=<nodes>, "
    "--physcpubind=<cpus>, --membind=<nodes>, --interleave=<nodes>, --preferred=<node>, --localalloc "
    "and -D<NAME>=<value>";

[[noreturn]] void reject(std::string_view arg, std::string_view why) {
  throw ForkArgError("fork argument '" + std::string(arg) + "': " + std::string(why));
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// An integer with an optional k/K/m/M/g/G suffix, in bytes.
std::uint64_t parse_size(std::string_view arg, std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  const std::string why = "'" + std::string(text) + "' is not a size (an integer with an optional k, m or g suffix)";
  if (ec != std::errc() || ptr == text.data()) reject(arg, why);
  int shift = 0;
  if (ptr != end) {
    switch (*ptr) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: reject(arg, why);
    }
    if (ptr + 1 != end) reject(arg, why);
  }
  if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) reject(arg, "size too large");
  return value << shift;
}

std::uint64_t parse_millis(std::string_view arg, std::string_view text) {
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    reject(arg, "'" + std::string(text) + "' is not a number of milliseconds");
  return value;
}

bool valid_env_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

/// libnuma prints its own warning for a bad list on stderr; we print one line of our
/// own instead, so its stderr is pointed at /dev/null while it parses. (The host is
/// single-threaded while it validates, so nothing else writes to stderr meanwhile.)
class QuietStderr {
 public:
  QuietStderr() {
    saved_ = ::dup(STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_ >= 0 && null >= 0) ::dup2(null, STDERR_FILENO);
    if (null >= 0) ::close(null);
  }
  ~QuietStderr() {
    if (saved_ >= 0) {
      ::dup2(saved_, STDERR_FILENO);
      ::close(saved_);
    }
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

std::vector<int> bits_of(const bitmask* mask) {
  std::vector<int> out;
  for (unsigned long i = 0; i < mask->size; ++i)
    if (numa_bitmask_isbitset(mask, static_cast<unsigned int>(i))) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> machine_nodes() {
  std::vector<int> out;
  for (int n = 0; n <= numa_max_node(); ++n)
    if (numa_bitmask_isbitset(numa_all_nodes_ptr, static_cast<unsigned int>(n))) out.push_back(n);
  return out;
}

std::vector<int> machine_cpus() { return bits_of(numa_all_cpus_ptr); }

void require_numa(std::string_view arg) {
  if (numa_available() < 0) reject(arg, "NUMA bindings need the kernel's NUMA support, which this system lacks");
}

/// A node or CPU list through libnuma's parser, checked to select something that exists.
std::vector<int> parse_list(std::string_view arg, std::string_view list, bitmask* (*parser)(const char*),
                            std::string_view noun, const std::vector<int>& existing) {
  require_numa(arg);
  bitmask* mask = nullptr;
  {
    QuietStderr quiet;
    mask = parser(std::string(list).c_str());
  }
  const std::string where = " (this machine's " + std::string(noun) + ": " + format_int_list(existing) + ")";
  if (!mask) reject(arg, "'" + std::string(list) + "' is not a list of existing " + std::string(noun) + where);
  std::vector<int> values = bits_of(mask);
  numa_bitmask_free(mask);
  if (values.empty()) reject(arg, "the list selects none of the " + std::string(noun) + where);
  return values;
}

std::vector<int> parse_nodes(std::string_view arg, std::string_view list) {
  return parse_list(arg, list, numa_parse_nodestring, "NUMA nodes", machine_nodes());
}

std::vector<int> parse_cpus(std::string_view arg, std::string_view list) {
  return parse_list(arg, list, numa_parse_cpustring, "CPUs", machine_cpus());
}

std::vector<int> cpus_of_nodes(std::string_view arg, const std::vector<int>& nodes) {
  std::vector<bool> seen;
  bitmask* cpus = numa_allocate_cpumask();
  for (int node : nodes) {
    if (numa_node_to_cpus(node, cpus) != 0) {
      numa_bitmask_free(cpus);
      reject(arg, "cannot read the CPUs of node " + std::to_string(node));
    }
    for (int c : bits_of(cpus)) {
      if (seen.size() <= static_cast<std::size_t>(c)) seen.resize(static_cast<std::size_t>(c) + 1);
      seen[static_cast<std::size_t>(c)] = true;
    }
  }
  numa_bitmask_free(cpus);
  std::vector<int> out;
  for (std::size_t c = 0; c < seen.size(); ++c)
    if (seen[c]) out.push_back(static_cast<int>(c));
  if (out.empty()) reject(arg, "the selected nodes have no CPUs");
  return out;
}

/// "--membind=0" -> "0"; a binding given without "=value" is an error.
std::string_view binding_value(std::string_view arg, std::string_view option) {
  if (arg.size() == option.size()) reject(arg, "needs a value: " + std::string(option) + "=<list>");
  if (arg[option.size()] != '=') return {};
  return arg.substr(option.size() + 1);
}

bool parse_allocator_flag(std::string_view arg, ForkSettings& s) {
  if (starts_with(arg, "-Xmx")) {
    const auto v = parse_size(arg, arg.substr(4));
    if (v == 0) reject(arg, "the maximum heap must be larger than 0");
    s.max_heap = v;
    return true;
  }
  if (starts_with(arg, "-Xms")) {
    s.initial_heap = parse_size(arg, arg.substr(4));
    return true;
  }
  if (arg == "-XX:+AlwaysPreTouch" || arg == "-XX:-AlwaysPreTouch") {
    s.always_pretouch = arg[4] == '+';
    return true;
  }
  if (arg == "-XX:+UseNUMA" || arg == "-XX:-UseNUMA" || arg == "-Xlog:numa") return true;
  if (starts_with(arg, "-XX:RegionSize=")) {
    const auto v = parse_size(arg, arg.substr(15));
    if (v == 0 || (v & (v - 1)) != 0) reject(arg, "the region size must be a power of two");
    return true;
  }
  if (starts_with(arg, "-XX:DecayTime=")) {
    (void)parse_millis(arg, arg.substr(14));
    return true;
  }
  if (arg == "-XX:+BackgroundPurge" || arg == "-XX:-BackgroundPurge") return true;
  return false;
}

/// -XX:Allocator=<value>: sets s.allocator and s.preload, or rejects the argument.
void parse_allocator_choice(std::string_view arg, ForkSettings& s) {
  const std::string value(arg.substr(14));
  struct Named {
    const char* name;
    const char* library;
  };
  static constexpr Named kNamed[] = {{"cmh", ""},
                                     {"glibc", ""},
                                     {"jemalloc", "libjemalloc.so.2"},
                                     {"tcmalloc", "libtcmalloc.so.4"},
                                     {"mimalloc", "libmimalloc.so.2"}};
  for (const Named& n : kNamed) {
    if (value == n.name) {
      s.allocator = value;
      s.preload = n.library;
      return;
    }
  }
  if (value.find('/') == std::string::npos)
    reject(arg, "unknown allocator '" + value + "' (expected cmh, glibc, jemalloc, tcmalloc, mimalloc or a path to a .so)");
  if (value.find_first_of(" \t:") != std::string::npos)
    reject(arg, "the path holds a blank or ':', which LD_PRELOAD cannot carry");
  struct stat st {};
  if (::stat(value.c_str(), &st) != 0) reject(arg, "'" + value + "' does not exist");
  if (!S_ISREG(st.st_mode)) reject(arg, "'" + value + "' is not a regular file");
  char* absolute = ::realpath(value.c_str(), nullptr);
  if (!absolute) reject(arg, "cannot resolve '" + value + "'");
  s.allocator = absolute;
  ::free(absolute);
  if (s.allocator.find_first_of(" \t:") != std::string::npos)
    reject(arg, "the path holds a blank or ':', which LD_PRELOAD cannot carry");
  s.preload = s.allocator;
}

}  // namespace

ForkSettings parse_fork_args(const std::vector<std::string>& args) {
  ForkSettings s;
  std::string cpu_binding_arg, memory_binding_arg, heap_flag;
  for (const std::string& a : args) {
    const std::string_view arg = a;
    if (parse_allocator_flag(arg, s)) {
      s.allocator_flags.push_back(a);
      heap_flag = a;
    } else if (starts_with(arg, "-XX:Allocator=")) {
      parse_allocator_choice(arg, s);
    } else if (starts_with(arg, "-D")) {
      const auto eq = arg.find('=');
      if (eq == std::string_view::npos) reject(arg, "expected -D<NAME>=<value>");
      const std::string_view name = arg.substr(2, eq - 2);
      if (!valid_env_name(name)) reject(arg, "'" + std::string(name) + "' is not a valid environment variable name");
      s.environment.emplace_back(std::string(name), std::string(arg.substr(eq + 1)));
    } else if (starts_with(arg, "--cpunodebind")) {
      const auto v = binding_value(arg, "--cpunodebind");
      if (v.data() == nullptr) reject(arg, std::string(kVocabulary));
      s.cpus = cpus_of_nodes(arg, parse_nodes(arg, v));
      cpu_binding_arg = a;
    } else if (starts_with(arg, "--physcpubind")) {
      const auto v = binding_value(arg, "--physcpubind");
      if (v.data() == nullptr) reject(arg, std::string(kVocabulary));
      s.cpus = parse_cpus(arg, v);
      cpu_binding_arg = a;
    } else if (starts_with(arg, "--membind") || starts_with(arg, "--interleave") || starts_with(arg, "--preferred")) {
      const std::string_view option = starts_with(arg, "--membind")      ? "--membind"
                                      : starts_with(arg, "--interleave") ? "--interleave"
                                                                         : "--preferred";
      const auto v = binding_value(arg, option);
      if (v.data() == nullptr) reject(arg, std::string(kVocabulary));
      s.memory_nodes = parse_nodes(arg, v);
      s.memory_policy = option == "--membind"      ? MemoryPolicy::bind
                        : option == "--interleave" ? MemoryPolicy::interleave
                                                   : MemoryPolicy::preferred;
      if (s.memory_policy == MemoryPolicy::preferred && s.memory_nodes.size() != 1)
        reject(arg, "--preferred takes exactly one node");
      memory_binding_arg = a;
    } else if (arg == "--localalloc") {
      require_numa(arg);
      s.memory_policy = MemoryPolicy::local;
      s.memory_nodes.clear();
      memory_binding_arg = a;
    } else {
      throw ForkArgError("unknown fork argument '" + a + "': " + std::string(kVocabulary));
    }
  }
  if (s.max_heap && s.initial_heap && *s.initial_heap > *s.max_heap)
    throw ForkArgError("fork arguments: the initial heap (-Xms) is larger than the maximum heap (-Xmx)");
  if (!s.allocator.empty() && s.allocator != "cmh") {
    if (!heap_flag.empty())
      throw ForkArgError("fork argument '" + heap_flag + "' configures cmh's bundled allocator, but -XX:Allocator=" +
                         s.allocator + " runs the fork on another one");
    s.allocator_flags.push_back("-XX:Allocator=" + s.allocator);
  }
  if (!cpu_binding_arg.empty()) s.binding_args.push_back(cpu_binding_arg);
  if (!memory_binding_arg.empty()) s.binding_args.push_back(memory_binding_arg);
  return s;
}

std::string allocator_env_value(const ForkSettings& settings) {
  std::string out;
  for (const auto& f : settings.allocator_flags) out += (out.empty() ? "" : " ") + f;
  return out;
}

std::string preload_env_value(const ForkSettings& settings, const char* inherited) {
  std::string out = settings.preload;
  if (inherited && *inherited) out += (out.empty() ? "" : ":") + std::string(inherited);
  return out;
}

std::string format_int_list(const std::vector<int>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(values[i]);
    if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(values[j]);
    i = j + 1;
  }
  return out;
}

std::optional<std::string> validate_fork_args(const std::vector<std::string>& args) {
  try {
    (void)parse_fork_args(args);
    return std::nullopt;
  } catch (const ForkArgError& e) {
    return std::string(e.what());
  }
}

}  // namespace cmh::forking

// SPDX-License-Identifier: MIT
// Benchmark selection by include/exclude patterns (see planner_selection.hpp).
//
// PCRE2 rather than std::regex: libstdc++'s regex compiles and matches by
// recursion (a 20,000-character pattern overflows the stack) and backtracks
// without bound (`(a|b)*(a|b)*...` hangs). PCRE2 rather than RE2, which would be
// linear by construction: PCRE2's syntax is Perl's, the closest to Java's
// java.util.regex that JMH users write (backreferences, lookaround, possessive
// quantifiers, \Q..\E), and its match, depth and heap limits turn a pattern that
// would backtrack for ever into an error in a few milliseconds.
#include "host/planner_selection.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

namespace cmh::host {

namespace {

// Enough for any real filter (JMH's are a few words); more is a mistake or an attack.
constexpr std::size_t kMaxPatternLength = 1000;
// Backtracking steps and nesting per match against one name (names are short):
// far above what a reasonable pattern needs, far below a noticeable delay.
constexpr std::uint32_t kMatchLimit = 1'000'000;
constexpr std::uint32_t kDepthLimit = 10'000;
constexpr std::uint32_t kHeapLimitKiB = 16 * 1024;

struct CodeFree {
  void operator()(pcre2_code* c) const { pcre2_code_free(c); }
};
struct MatchDataFree {
  void operator()(pcre2_match_data* m) const { pcre2_match_data_free(m); }
};
struct ContextFree {
  void operator()(pcre2_match_context* c) const { pcre2_match_context_free(c); }
};

std::string pcre2_message(int code) {
  PCRE2_UCHAR buf[256];
  if (pcre2_get_error_message(code, buf, sizeof buf) < 0) return "error " + std::to_string(code);
  return reinterpret_cast<const char*>(buf);
}

/// Shown in messages: a long pattern is cut, so that the error stays one readable line.
std::string shown(const std::string& pattern) {
  return pattern.size() <= 60 ? pattern : pattern.substr(0, 60) + "...";
}

struct Pattern {
  std::string text;
  std::string what;  ///< "include" or "exclude (-e)"
  std::unique_ptr<pcre2_code, CodeFree> code;
};

class Matcher {
 public:
  Matcher() : context_(pcre2_match_context_create(nullptr)), data_(pcre2_match_data_create(1, nullptr)) {
    if (!context_ || !data_) throw std::bad_alloc();
    pcre2_set_match_limit(context_.get(), kMatchLimit);
    pcre2_set_depth_limit(context_.get(), kDepthLimit);
    pcre2_set_heap_limit(context_.get(), kHeapLimitKiB);
  }

  bool matches(const Pattern& p, const std::string& name) {
    const int rc = pcre2_match(p.code.get(), reinterpret_cast<PCRE2_SPTR>(name.data()), name.size(), 0, 0, data_.get(),
                               context_.get());
    if (rc >= 0) return true;
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    throw cli::CommandLineError(fmt::format(
        "The {} regular expression \"{}\" is too costly to match against \"{}\" ({}): simplify it (nested or "
        "repeated groups that can match the same text backtrack without end)",
        p.what, shown(p.text), name, pcre2_message(rc)));
  }

 private:
  std::unique_ptr<pcre2_match_context, ContextFree> context_;
  std::unique_ptr<pcre2_match_data, MatchDataFree> data_;
};

std::vector<Pattern> compile(const std::vector<std::string>& patterns, std::string_view what) {
  std::vector<Pattern> compiled;
  for (const auto& p : patterns) {
    if (p.size() > kMaxPatternLength)
      throw cli::CommandLineError(fmt::format("Invalid {} regular expression \"{}\": it is {} characters long, at most {}",
                                              what, shown(p), p.size(), kMaxPatternLength));
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(p.data()), p.size(), PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
                                     &error, &offset, nullptr);
    if (code == nullptr)
      throw cli::CommandLineError(fmt::format("Invalid {} regular expression \"{}\": {} at offset {}", what, shown(p),
                                              pcre2_message(error), offset));
    compiled.push_back({p, std::string(what), std::unique_ptr<pcre2_code, CodeFree>(code)});
  }
  return compiled;
}

bool any_match(Matcher& m, const std::vector<Pattern>& patterns, const std::string& name) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const Pattern& p) { return m.matches(p, name); });
}

/// Registry entries in full-name order (the registry is sorted already, but a
/// hand-built one in a test need not be).
std::vector<const BenchmarkDefinition*> sorted(const std::vector<BenchmarkDefinition>& registry) {
  std::vector<const BenchmarkDefinition*> all;
  all.reserve(registry.size());
  for (const auto& def : registry) all.push_back(&def);
  std::stable_sort(all.begin(), all.end(), [](const BenchmarkDefinition* a, const BenchmarkDefinition* b) {
    return a->full_name() < b->full_name();
  });
  return all;
}

}  // namespace

std::vector<const BenchmarkDefinition*> select_benchmarks(const cli::CommandLine& cl,
                                                          const std::vector<BenchmarkDefinition>& registry) {
  const auto includes = compile(cl.includes, "include");
  const auto excludes = compile(cl.excludes, "exclude (-e)");
  Matcher matcher;
  std::vector<const BenchmarkDefinition*> selected;
  for (const BenchmarkDefinition* def : sorted(registry)) {
    const std::string name = def->full_name();
    const bool included = includes.empty() || any_match(matcher, includes, name);
    if (included && !any_match(matcher, excludes, name)) selected.push_back(def);
  }
  return selected;
}

}  // namespace cmh::host

// SPDX-License-Identifier: MIT
// parse_command_line: JMH's command-line grammar, driven by the flag table.
//
// This parser is cmh's own only because no packaged parser handles JMH's grammar:
// multi-letter flags behind a single dash (-wi, -rff, -jvmArgsAppend) next to
// one-letter ones, "-flag value" and "-flag=value", unique-prefix abbreviations,
// and "-D" properties. JMH gets that from jopt-simple; these rules are the ones
// jopt-simple applies, so JMH command lines mean the same here:
//  - "-name" and "--name" are the same flag; a value follows as the next word
//    (taken whatever it looks like, so "-i -1" is -i with the value "-1") or
//    after '=' in the same word ("-wi=3");
//  - a unique prefix abbreviates a flag ("-jvmArgsA"), an exact name always wins
//    over longer names it prefixes ("-l" is not "-lp");
//  - a one-letter flag may carry a number right after it ("-f0", "-i5");
//  - every other word is an include regex, and so is everything after "--".
#include "cli/command_line.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "cli/flags.hpp"
#include "cli/values.hpp"

namespace cmh::cli {

namespace {

[[noreturn]] void fail(std::string message) { throw CommandLineError(std::move(message)); }

const FlagSpec* find_exact(std::string_view key) {
  for (const auto& f : flag_table())
    if (key == f.name || (!f.alias.empty() && key == f.alias)) return &f;
  return nullptr;
}

/// The flag `key` names exactly or abbreviates uniquely; nullptr if none.
/// Throws for a prefix of several flags.
const FlagSpec* find_flag(std::string_view key, std::string_view dashes) {
  if (const FlagSpec* exact = find_exact(key)) return exact;
  std::vector<const FlagSpec*> candidates;
  std::vector<std::string> spelled;
  for (const auto& f : flag_table()) {
    if (f.name.starts_with(key)) {
      candidates.push_back(&f);
      spelled.push_back(fmt::format("-{}", f.name));
    } else if (!f.alias.empty() && f.alias.starts_with(key)) {
      candidates.push_back(&f);
      spelled.push_back(fmt::format("-{}", f.alias));
    }
  }
  if (candidates.size() > 1)
    fail(fmt::format("Option {}{} is ambiguous: it abbreviates {}", dashes, key, fmt::join(spelled, ", ")));
  return candidates.empty() ? nullptr : candidates.front();
}

[[noreturn]] void unknown_option(std::string_view word) {
  // A wrong case is the commonest slip with JMH's camel-case names (-jvmargs).
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& f : flag_table()) {
    for (std::string_view name : {f.name, f.alias}) {
      if (name.empty()) continue;
      std::string candidate = "-" + std::string(name);
      std::string candidate_lower = candidate;
      for (char& c : candidate_lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == candidate_lower || lower == "-" + candidate_lower)
        fail(fmt::format("Unknown option: {} (did you mean {}?)", word, candidate));
    }
  }
  fail(fmt::format("Unknown option: {} (see -h for the options)", word));
}

/// "-Dname=value": a property of the host, as JMH's -Djmh.ignoreLock=true.
void apply_property(CommandLine& cl, std::string_view word) {
  std::string_view body = word.substr(2);
  const auto eq = body.find('=');
  const std::string_view name = body.substr(0, eq);
  if (name == "cmh.ignoreLock") {
    // A bare -Dcmh.ignoreLock means true: nobody writes it to mean false.
    if (eq == std::string_view::npos) {
      cl.ignore_lock = true;
      return;
    }
    try {
      cl.ignore_lock = parse_bool(body.substr(eq + 1));
    } catch (const CommandLineError& e) {
      fail(fmt::format("Property -Dcmh.ignoreLock: {}", e.what()));
    }
    return;
  }
  fail(fmt::format(
      "Unknown property: {} (the host knows -Dcmh.ignoreLock=true; an environment variable for the "
      "forks goes in -forkArgs \"-DNAME=value\")",
      word));
}

class Parser {
 public:
  Parser(int argc, const char* const* argv) : argc_(argc), argv_(argv) {}

  CommandLine run() {
    if (argc_ > 0 && argv_[0] != nullptr) state_.command_line.program = argv_[0];
    bool options_ended = false;
    for (next_ = 1; next_ < argc_;) {
      const std::string_view word = argv_[next_++];
      if (options_ended || word.size() < 2 || word[0] != '-') {
        state_.command_line.includes.emplace_back(word);
      } else if (word == "--") {
        options_ended = true;
      } else if (word[1] == 'D') {
        apply_property(state_.command_line, word);
      } else {
        parse_option(word);
      }
    }
    return finish();
  }

 private:
  void parse_option(std::string_view word) {
    const bool long_form = word.starts_with("--");
    const std::string_view dashes = long_form ? "--" : "-";
    const std::string_view body = word.substr(dashes.size());
    const auto eq = body.find('=');
    const std::string_view key = body.substr(0, eq);
    std::optional<std::string_view> attached;
    if (eq != std::string_view::npos) attached = body.substr(eq + 1);

    if (const FlagSpec* flag = key.empty() ? nullptr : find_flag(key, dashes)) {
      apply(*flag, attached);
      return;
    }
    // "-f0", "-i5": a one-letter flag with its number glued on, as jopt-simple allows.
    if (!long_form && body.size() > 1 && std::isdigit(static_cast<unsigned char>(body[1]))) {
      if (const FlagSpec* flag = find_exact(body.substr(0, 1)); flag && !flag->value_name.empty()) {
        apply(*flag, body.substr(1));
        return;
      }
    }
    unknown_option(word);
  }

  void apply(const FlagSpec& flag, std::optional<std::string_view> attached) {
    if (!flag.repeatable && !seen_.insert(flag.name).second)
      fail(fmt::format("Option -{} is given more than once", flag.name));
    std::string_view value;
    if (flag.value_name.empty()) {
      if (attached) fail(fmt::format("Option -{} takes no value, got \"{}\"", flag.name, *attached));
    } else if (attached) {
      value = *attached;
    } else if (next_ < argc_) {
      value = argv_[next_++];  // whatever it looks like: "-i -1" means the value "-1"
    } else {
      fail(fmt::format("Option -{} needs a value <{}>", flag.name, flag.value_name));
    }
    try {
      flag.apply(state_, value);
    } catch (const CommandLineError& e) {
      fail(fmt::format("Option -{}: {}", flag.name, e.what()));
    }
  }

  CommandLine finish() {
    if (const auto& groups = state_.command_line.overrides.thread_groups) {
      long long total = 0;  // each count is at most kMaxThreads, their number is not bounded
      for (int g : *groups) total += g;
      if (total > kMaxThreads)
        fail(fmt::format("Option -tg: the thread counts \"{}\" add up to {}, more than {}", fmt::join(*groups, ","),
                         total, kMaxThreads));
      if (total <= 0)
        fail(fmt::format("Option -tg: the thread counts \"{}\" add up to 0; a group needs a thread",
                         fmt::join(*groups, ",")));
    }
    if (state_.command_line.max_time && !state_.command_line.precision)
      fail("Option -maxTime is the time budget of -prec: give -prec as well (e.g. -prec 2%)");
    auto& fork = state_.command_line.overrides.fork;
    if (state_.command_line.quick) apply_quick_preset(state_.command_line.overrides);
    fork.args = std::move(state_.fork_args);
    fork.args_prepend = std::move(state_.fork_args_prepend);
    fork.args_append = std::move(state_.fork_args_append);
    return std::move(state_.command_line);
  }

  int argc_;
  const char* const* argv_;
  int next_ = 1;
  ParseState state_;
  std::set<std::string_view> seen_;
};

}  // namespace

CommandLine parse_command_line(int argc, const char* const* argv) { return Parser(argc, argv).run(); }

}  // namespace cmh::cli

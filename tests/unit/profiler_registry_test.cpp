// SPDX-License-Identifier: MIT
// The profiler table, JMH's -prof syntax, option checking, the -lprof and
// name:help texts, and a user profiler registered with CMH_PROFILER (the way a
// user adds one: link a class, register it, no harness change).
#include <doctest/doctest.h>

#include <cmh/profiler_registration.hpp>

#include "profiling/profiler_factory.hpp"

#include <string>

namespace {

/// A user profiler: counts iterations and reports the ops it saw, scaled by an option.
class IterationCounter : public cmh::InternalProfiler {
 public:
  explicit IterationCounter(const cmh::ProfilerOptions& options) {
    cmh::ProfilerOptionReader reader("test-counter", options);
    scale_ = reader.integer("scale", 1, 1, 1000);
    reader.finish();
  }
  static std::string help() { return "  scale=<1..1000>  multiply the ops by this (default 1)\n"; }
  static std::vector<std::string> aliases() { return {"test-count"}; }

  void before_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&) override { ++seen_; }
  std::vector<cmh::ScalarResult> after_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&,
                                                 const cmh::IterationResult& r) override {
    return {{"test.iterations", double(seen_), "counts", cmh::AggregationPolicy::sum},
            {"test.ops", double(r.all_ops * scale_), "ops", cmh::AggregationPolicy::average}};
  }

 private:
  int seen_ = 0;
  std::int64_t scale_ = 1;
};
CMH_PROFILER(IterationCounter, "test-counter", "Counts iterations (unit-test profiler)");

/// Never usable: shows up under "Unsupported profilers:" with its reason.
struct NeverHere : cmh::InternalProfiler {
  static std::optional<std::string> unsupported_reason() { return "needs a machine that does not exist"; }
  void before_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&) override {}
  std::vector<cmh::ScalarResult> after_iteration(const cmh::BenchmarkParams&, const cmh::IterationParams&,
                                                 const cmh::IterationResult&) override {
    return {};
  }
};
CMH_PROFILER(NeverHere, "test-never", "Cannot run anywhere (unit-test profiler)");

cmh::ProfilerInfo dummy_info(std::string name, std::vector<std::string> aliases = {}) {
  cmh::ProfilerInfo info;
  info.name = std::move(name);
  info.aliases = std::move(aliases);
  info.description = "dummy";
  info.create = [](const cmh::ProfilerOptions&) -> std::unique_ptr<cmh::Profiler> { return nullptr; };
  return info;
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const cmh::ProfilerError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("parse_profiler_spec: JMH's -prof syntax") {
  auto [name, opts] = cmh::parse_profiler_spec("alloc");
  CHECK(name == "alloc");
  CHECK(opts.empty());

  std::tie(name, opts) = cmh::parse_profiler_spec("alloc:threads=live;alloc=false");
  CHECK(name == "alloc");
  CHECK(opts == cmh::ProfilerOptions{{"alloc", "false"}, {"threads", "live"}});

  std::tie(name, opts) = cmh::parse_profiler_spec("perfnorm:events=cycles,task-clock;");
  CHECK(opts == cmh::ProfilerOptions{{"events", "cycles,task-clock"}});

  std::tie(name, opts) = cmh::parse_profiler_spec("gc:help");
  CHECK(name == "gc");
  CHECK(opts == cmh::ProfilerOptions{{"help", ""}});

  std::tie(name, opts) = cmh::parse_profiler_spec("x: a = 1 ; b=2=3");
  CHECK(opts == cmh::ProfilerOptions{{"a", "1"}, {"b", "2=3"}});
}

TEST_CASE("parse_profiler_spec: malformed specs name what is wrong") {
  CHECK(error_of([] { cmh::parse_profiler_spec(""); }).find("missing profiler name") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec(":a=1"); }).find("missing profiler name") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec("al loc"); }).find("not a profiler name") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec("alloc:"); }).find("nothing after ':'") != std::string::npos);
  // A bare key is a flag (empty value); a profiler that wants a value says so when it reads it.
  CHECK(cmh::parse_profiler_spec("alloc:threads").second == cmh::ProfilerOptions{{"threads", ""}});
  CHECK(error_of([] { cmh::profiling::create_profiler("test-counter:scale"); }) ==
        "-prof test-counter: option 'scale' needs a value (scale=<value>)");
  CHECK(error_of([] { cmh::parse_profiler_spec("alloc:threads;threads"); }).find("given twice") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec("alloc:=live"); }).find("no name before '='") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec("alloc:threads="); }).find("empty value") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec("alloc:a=1;;b=2"); }).find("empty option") != std::string::npos);
  CHECK(error_of([] { cmh::parse_profiler_spec("alloc:a=1;a=2"); }).find("given twice") != std::string::npos);
}

TEST_CASE("ProfilerRegistry: names, aliases, sorting, replacement and collisions") {
  cmh::ProfilerRegistry registry;
  registry.add(dummy_info("zeta"));
  registry.add(dummy_info("alpha", {"a"}));
  REQUIRE(registry.find("alpha") != nullptr);
  CHECK(registry.find("a") == registry.find("alpha"));
  CHECK(registry.find("nope") == nullptr);
  auto all = registry.all();
  REQUIRE(all.size() == 2);
  CHECK(all[0]->name == "alpha");
  CHECK(all[1]->name == "zeta");

  auto replacement = dummy_info("alpha", {"a"});
  replacement.description = "replaced";
  registry.add(replacement);
  CHECK(registry.all().size() == 2);
  CHECK(registry.find("a")->description == "replaced");

  CHECK(error_of([&] { registry.add(dummy_info("a")); }).find("already an alias of 'alpha'") != std::string::npos);
  CHECK(error_of([&] { registry.add(dummy_info("beta", {"zeta"})); }).find("already taken by 'zeta'") !=
        std::string::npos);
  CHECK(error_of([&] { registry.add(dummy_info("bad name")); }).find("cannot register") != std::string::npos);
  auto no_factory = dummy_info("nofactory");
  no_factory.create = nullptr;
  CHECK(error_of([&] { registry.add(no_factory); }).find("no create function") != std::string::npos);
}

TEST_CASE("ProfilerOptionReader: typed values and unknown options") {
  cmh::ProfilerOptions opts{{"on", "yes"}, {"mode", "live"}, {"n", "42"}, {"events", "a,b"}};
  cmh::ProfilerOptionReader reader("demo", opts);
  CHECK(reader.flag("on", false));
  CHECK_FALSE(reader.flag("absent", false));
  CHECK(reader.choice("mode", {"all", "live"}, "all") == "live");
  CHECK(reader.integer("n", 0, 0, 100) == 42);
  CHECK(reader.list("events", {}) == std::vector<std::string>{"a", "b"});
  CHECK_NOTHROW(reader.finish());

  cmh::ProfilerOptions bad{{"mode", "some"}};
  cmh::ProfilerOptionReader r2("demo", bad);
  CHECK(error_of([&] { r2.choice("mode", {"all", "live"}, "all"); }) ==
        "-prof demo: option mode=some: expected all or live");
  cmh::ProfilerOptions typo{{"thread", "live"}};
  cmh::ProfilerOptionReader r3("demo", typo);
  r3.flag("alloc", true);
  r3.choice("threads", {"all", "live"}, "all");
  CHECK(error_of([&] { r3.finish(); }) ==
        "-prof demo: unknown option 'thread' (it accepts: alloc, threads; see -prof demo:help)");
  cmh::ProfilerOptions num{{"n", "4x"}};
  cmh::ProfilerOptionReader r4("demo", num);
  CHECK(error_of([&] { r4.integer("n", 0, 0, 10); }).find("expected an integer from 0 to 10") != std::string::npos);
  cmh::ProfilerOptions flag{{"on", "maybe"}};
  cmh::ProfilerOptionReader r5("demo", flag);
  CHECK(error_of([&] { r5.flag("on", true); }).find("expected true or false") != std::string::npos);
  // A bare key ("flame:alloc") is a true flag, and a missing value for anything else.
  cmh::ProfilerOptions bare{{"alloc", ""}, {"mode", ""}};
  cmh::ProfilerOptionReader r6("demo", bare);
  CHECK(r6.flag("alloc", false));
  CHECK(error_of([&] { r6.choice("mode", {"all", "live"}, "all"); }) ==
        "-prof demo: option 'mode' needs a value (mode=<value>)");
}

TEST_CASE("a user profiler registered with CMH_PROFILER is created from a -prof spec and runs") {
  const cmh::ProfilerInfo* info = cmh::ProfilerRegistry::instance().find("test-count");
  REQUIRE(info != nullptr);
  CHECK(info->name == "test-counter");
  CHECK(info->internal);
  CHECK_FALSE(info->external);

  auto profiler = cmh::profiling::create_profiler("test-counter:scale=3");
  auto* internal = dynamic_cast<cmh::InternalProfiler*>(profiler.get());
  REQUIRE(internal != nullptr);
  cmh::BenchmarkParams bp;
  cmh::IterationResult ir;
  ir.all_ops = 7;
  internal->before_iteration(bp, bp.measurement);
  internal->before_iteration(bp, bp.measurement);
  auto results = internal->after_iteration(bp, bp.measurement, ir);
  REQUIRE(results.size() == 2);
  CHECK(results[0].label == "test.iterations");
  CHECK(results[0].value == 2);
  CHECK(results[1].value == 21);

  CHECK(error_of([] { cmh::profiling::create_profiler("test-counter:scales=3"); })
            .find("unknown option 'scales' (it accepts: scale;") != std::string::npos);
  CHECK(error_of([] { cmh::profiling::create_profiler("test-never"); }) ==
        "-prof test-never: not supported here: needs a machine that does not exist");
  CHECK(error_of([] { cmh::profiling::create_profiler("no-such-profiler"); })
            .find("-prof no-such-profiler: unknown profiler (known: ") != std::string::npos);
  CHECK(error_of([] { cmh::profiling::validate_profiler_specs({"test-counter", "test-counter:x"}); })
            .find("unknown option 'x'") != std::string::npos);

  auto request = cmh::profiling::resolve_profiler("test-count:help");
  CHECK(request.help);
  CHECK(request.info == info);
  CHECK(request.options.empty());
  const std::string help = cmh::profiling::profiler_help_text(*info);
  CHECK(help.find("Usage: -prof test-counter[:key=value;key2=value]") == 0);
  CHECK(help.find("scale=<1..1000>") != std::string::npos);
}

TEST_CASE("profiler_list_text: supported and unsupported profilers, each unsupported with its reason") {
  const std::string text = cmh::profiling::profiler_list_text();
  const auto supported = text.find("Supported profilers:\n");
  const auto unsupported = text.find("Unsupported profilers:\n");
  REQUIRE(supported == 0);
  REQUIRE(unsupported != std::string::npos);
  const auto counter = text.find("test-counter: Counts iterations (unit-test profiler) (alias: test-count)\n");
  const auto never = text.find("test-never: Cannot run anywhere (unit-test profiler)\n");
  REQUIRE(counter != std::string::npos);
  REQUIRE(never != std::string::npos);
  CHECK(counter < unsupported);
  CHECK(never > unsupported);
  CHECK(text.find("[needs a machine that does not exist]", never) != std::string::npos);
}

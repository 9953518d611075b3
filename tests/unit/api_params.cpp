// SPDX-License-Identifier: MIT
// @Param: declarations visible at registration (sorted, typed, defaults as
// strings, empty defaults kept for the planner to reject), string conversion
// per type, injection before setup, and bad values reported as failures.
#include <cmh/cmh.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <mutex>
#include <string>

#include "engine_support.hpp"

namespace api_params_test {

enum class Shape { circle, square };
bool cmh_parse_param(std::string_view text, Shape& out) {
  if (text == "circle") return out = Shape::circle, true;
  if (text == "square") return out = Shape::square, true;
  return false;
}

struct Knobs : cmh::BenchmarkState {
  int size = 0;
  double ratio = 0;
  bool flag = false;
  std::string name;
  Shape shape = Shape::circle;
  std::int64_t big = 0;
  static constexpr auto params =
      cmh::params(cmh::param("size", &Knobs::size, "10", "100"), cmh::param("ratio", &Knobs::ratio, "0.5"),
                  cmh::param("flag", &Knobs::flag, "true", "false"), cmh::param("name", &Knobs::name, "abc"),
                  cmh::param("shape", &Knobs::shape, "square"), cmh::param("big", &Knobs::big, "1"));
  void setup_trial();
};

struct Seen {
  Knobs knobs;
  bool set_before_setup = false;
};
std::mutex g_mutex;
Seen g_seen;

void Knobs::setup_trial() {
  std::lock_guard<std::mutex> hold(g_mutex);
  g_seen = {*this, size != 0};
}

struct Undeclared : cmh::ThreadState {
  int n = 0;
  static constexpr auto params = cmh::params(cmh::param("n", &Undeclared::n));
};

}  // namespace api_params_test

using namespace api_params_test;

CMH_BENCHMARK(ApiParams, knobs, Knobs& k) { return k.size; }
CMH_BENCHMARK(ApiParams, undeclared, Undeclared& u, const Knobs&) { return u.n; }

using cmh::detail::parse_param;
using cmh::testing::definition;
using cmh::testing::quick_plan;
using cmh::testing::run;

TEST_CASE("api: parameters are known at registration, sorted by name, with types and defaults") {
  const auto& def = definition("ApiParams.knobs");
  REQUIRE(def.params.size() == 6);
  std::vector<std::string> names;
  for (const auto& p : def.params) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"big", "flag", "name", "ratio", "shape", "size"});
  CHECK(def.params[5].defaults == std::vector<std::string>{"10", "100"});
  CHECK(def.params[5].type_name == "int");
  CHECK(def.params[1].type_name == "bool");
  CHECK(def.params[2].type_name == "std::string");
  CHECK(def.params[3].type_name == "double");
  CHECK(def.params[4].type_name == "api_params_test::Shape");

  const auto& two = definition("ApiParams.undeclared");  // both states' parameters
  REQUIRE(two.params.size() == 7);
  auto n = std::find_if(two.params.begin(), two.params.end(), [](const cmh::ParamDecl& p) { return p.name == "n"; });
  REQUIRE(n != two.params.end());
  CHECK(n->defaults.empty());  // the planner reports "no values"
}

TEST_CASE("api: parameter values convert by the member's type") {
  int i = 0;
  CHECK(parse_param("42", i));
  CHECK(i == 42);
  CHECK(parse_param("-7", i));
  CHECK(i == -7);
  CHECK(parse_param("+3", i));
  CHECK(i == 3);
  CHECK_FALSE(parse_param("4x", i));
  CHECK_FALSE(parse_param("", i));
  CHECK_FALSE(parse_param("99999999999", i));  // out of range
  unsigned u = 0;
  CHECK_FALSE(parse_param("-1", u));
  std::int64_t big = 0;
  CHECK(parse_param("9000000000", big));
  CHECK(big == 9'000'000'000);
  double d = 0;
  CHECK(parse_param("2.5e3", d));
  CHECK(d == 2500.0);
  CHECK_FALSE(parse_param("2.5.1", d));
  bool b = false;
  CHECK(parse_param("true", b));
  CHECK(b);
  CHECK(parse_param("false", b));
  CHECK(!b);
  CHECK_FALSE(parse_param("yes", b));
  char c = 0;
  CHECK(parse_param("x", c));
  CHECK(c == 'x');
  CHECK_FALSE(parse_param("xy", c));
  std::string s;
  CHECK(parse_param("a b,c", s));
  CHECK(s == "a b,c");
  Shape shape = Shape::circle;
  CHECK(parse_param("square", shape));
  CHECK(shape == Shape::square);
  CHECK_FALSE(parse_param("triangle", shape));
}

TEST_CASE("api: check_param_value validates -p values without running anything") {
  const auto& def = definition("ApiParams.knobs");
  CHECK_FALSE(cmh::check_param_value(def, "size", "12").has_value());
  auto bad = cmh::check_param_value(def, "size", "twelve");
  REQUIRE(bad.has_value());
  CHECK(*bad == "'twelve' is not a valid int for parameter 'size' of ApiParams.knobs");
  CHECK(cmh::check_param_value(def, "shape", "hexagon").has_value());
  CHECK_FALSE(cmh::check_param_value(def, "shape", "circle").has_value());
}

TEST_CASE("engine: the plan's parameter values are injected before setup") {
  const auto& def = definition("ApiParams.knobs");
  auto plan = quick_plan(def, cmh::BenchmarkMode::throughput, 1, 1);
  plan.params = {{"big", "-5"}, {"flag", "false"}, {"name", "hello world"},
                 {"ratio", "0.25"}, {"shape", "circle"}, {"size", "1000"}};
  run(def, plan);
  std::lock_guard<std::mutex> hold(g_mutex);
  CHECK(g_seen.set_before_setup);
  CHECK(g_seen.knobs.size == 1000);
  CHECK(g_seen.knobs.ratio == 0.25);
  CHECK(g_seen.knobs.flag == false);
  CHECK(g_seen.knobs.name == "hello world");
  CHECK(g_seen.knobs.shape == Shape::circle);
  CHECK(g_seen.knobs.big == -5);
}

TEST_CASE("engine: a missing value takes the first default, a bad one fails the trial clearly") {
  const auto& def = definition("ApiParams.knobs");
  auto plan = quick_plan(def, cmh::BenchmarkMode::throughput, 1, 1);
  plan.params.clear();
  run(def, plan);
  {
    std::lock_guard<std::mutex> hold(g_mutex);
    CHECK(g_seen.knobs.size == 10);
    CHECK(g_seen.knobs.shape == Shape::square);
  }
  plan.params = {{"size", "lots"}};
  auto obs = run(def, plan, false);
  REQUIRE(obs.failure);
  CHECK(obs.failure->kind == cmh::FailureKind::other);
  CHECK(obs.failure->message == "parameter 'size': 'lots' is not a valid int");
  CHECK(obs.events == std::vector<std::string>{"fail W1"});

  const auto& undeclared = definition("ApiParams.undeclared");
  auto obs2 = run(undeclared, quick_plan(undeclared, cmh::BenchmarkMode::throughput, 1, 1), false);
  REQUIRE(obs2.failure);
  CHECK(obs2.failure->message == "parameter 'n' has no value");
}

// SPDX-License-Identifier: MIT
// The small utilities that have one home for every part: this executable's path
// (common/, cmh::common::self_executable_path) and the demangler (the engine's
// cmh::detail::demangle, which the worker and the profilers' symbolizer call).
#include <doctest/doctest.h>

#include <cmh/common/self_executable.hpp>
#include <cmh/param.hpp>

#include <filesystem>
#include <string>
#include <typeinfo>
#include <vector>

namespace common_utilities_test {
struct Widget {};
template <class T>
struct Box {};
}  // namespace common_utilities_test

TEST_CASE("self_executable_path: the absolute path of this very executable") {
  const std::string path = cmh::common::self_executable_path();
  REQUIRE_FALSE(path.empty());
  CHECK(path.front() == '/');
  CHECK(std::filesystem::is_regular_file(path));
  // The same file the kernel runs (not merely some file that exists).
  CHECK(std::filesystem::equivalent(path, "/proc/self/exe"));
}

TEST_CASE("demangle: type names as C++ spells them; other names unchanged") {
  using namespace common_utilities_test;
  CHECK(cmh::detail::demangle(typeid(int).name()) == "int");
  CHECK(cmh::detail::demangle(typeid(Widget).name()) == "common_utilities_test::Widget");
  CHECK(cmh::detail::demangle(typeid(Box<double>).name()) == "common_utilities_test::Box<double>");
  CHECK(cmh::detail::demangle("_ZN3cmh6detail8demangleEPKc") == "cmh::detail::demangle(char const*)");
  // Not a mangled name: returned as it is.
  CHECK(cmh::detail::demangle("main") == "main");
  CHECK(cmh::detail::demangle("") == "");
}

// SPDX-License-Identifier: MIT
// The fork-argument vocabulary: allocator flags pass through to CMH_ALLOC,
// -DNAME=value becomes the fork's environment, numactl bindings are parsed
// with libnuma against this machine (node 0 and CPU 0 always exist; node 4096
// and CPU 100000 never do), and anything else is rejected with one clear line.
#include <doctest/doctest.h>

#include <numa.h>

#include "fork/fork_args.hpp"
#include "fork/fork_runner.hpp"

using namespace cmh::forking;

namespace {
std::string error_of(const std::vector<std::string>& args) {
  auto e = validate_fork_args(args);
  return e ? *e : std::string();
}
}  // namespace

TEST_CASE("fork args: allocator flags go to CMH_ALLOC in order") {
  const auto s = parse_fork_args({"-Xmx1g", "-Xms512m", "-XX:+AlwaysPreTouch", "-XX:-UseNUMA",
                                  "-XX:RegionSize=4m", "-XX:DecayTime=250", "-XX:+UseNUMA", "-XX:-AlwaysPreTouch"});
  CHECK(allocator_env_value(s) ==
        "-Xmx1g -Xms512m -XX:+AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=250 -XX:+UseNUMA "
        "-XX:-AlwaysPreTouch");
  CHECK_FALSE(s.has_binding());
  CHECK(s.environment.empty());
}

TEST_CASE("fork args: -XX:+BackgroundPurge and -XX:-BackgroundPurge go to CMH_ALLOC") {
  const auto s = parse_fork_args({"-XX:-BackgroundPurge", "-Xmx1g", "-XX:+BackgroundPurge"});
  CHECK(allocator_env_value(s) == "-XX:-BackgroundPurge -Xmx1g -XX:+BackgroundPurge");
}

TEST_CASE("fork args: -DNAME=value becomes the fork's environment") {
  const auto s = parse_fork_args({"-DFOO=bar", "-Dcmh.x=", "-D_Y=a=b c"});
  REQUIRE(s.environment.size() == 3);
  CHECK(s.environment[0] == std::pair<std::string, std::string>{"FOO", "bar"});
  CHECK(s.environment[1] == std::pair<std::string, std::string>{"cmh.x", ""});
  CHECK(s.environment[2] == std::pair<std::string, std::string>{"_Y", "a=b c"});
  CHECK(allocator_env_value(s).empty());
}

TEST_CASE("fork args: malformed values are rejected naming the argument") {
  CHECK(error_of({"-Xmx"}).find("'-Xmx'") != std::string::npos);
  CHECK(error_of({"-Xmx1q"}).find("is not a size") != std::string::npos);
  CHECK(error_of({"-Xmx0"}).find("larger than 0") != std::string::npos);
  CHECK(error_of({"-Xmx99999999999g"}).find("too large") != std::string::npos);
  CHECK(error_of({"-XX:RegionSize=3m"}).find("power of two") != std::string::npos);
  CHECK(error_of({"-XX:DecayTime=soon"}).find("milliseconds") != std::string::npos);
  CHECK(error_of({"-Xmx1g", "-Xms2g"}).find("-Xms") != std::string::npos);
  CHECK(error_of({"-DFOO"}).find("-D<NAME>=<value>") != std::string::npos);
  CHECK(error_of({"-D1X=2"}).find("not a valid environment variable name") != std::string::npos);
  CHECK(error_of({"-XX:+UseG1GC"}).find("unknown fork argument '-XX:+UseG1GC'") != std::string::npos);
  CHECK(error_of({"--cpunodebind"}).find("needs a value") != std::string::npos);
  CHECK(error_of({"--numa"}).find("unknown fork argument") != std::string::npos);
  CHECK(error_of({"-Xmx1g", "-DA=b", "--localalloc"}).empty() == (numa_available() >= 0));
}

TEST_CASE("fork args: numactl bindings are checked against this machine" * doctest::skip(numa_available() < 0)) {
  SUBCASE("node 0 exists, node 4096 does not") {
    const auto s = parse_fork_args({"--cpunodebind=0", "--membind=0"});
    CHECK_FALSE(s.cpus.empty());
    CHECK(s.memory_policy == MemoryPolicy::bind);
    CHECK(s.memory_nodes == std::vector<int>{0});
    CHECK(s.binding_args == std::vector<std::string>{"--cpunodebind=0", "--membind=0"});
    const std::string e = error_of({"--membind=4096"});
    CHECK(e.find("'--membind=4096'") != std::string::npos);
    CHECK(e.find("this machine's NUMA nodes: 0") != std::string::npos);
  }
  SUBCASE("CPU 0 exists, CPU 100000 does not") {
    CHECK(parse_fork_args({"--physcpubind=0"}).cpus == std::vector<int>{0});
    CHECK(error_of({"--physcpubind=100000"}).find("not a list of existing CPUs") != std::string::npos);
    CHECK(error_of({"--physcpubind="}).find("selects none of the CPUs") != std::string::npos);
  }
  SUBCASE("libnuma's list syntax") {
    CHECK(parse_fork_args({"--interleave=all"}).memory_nodes.front() == 0);
    CHECK(error_of({"--membind=zero"}).find("not a list of existing NUMA nodes") != std::string::npos);
  }
  SUBCASE("a later binding of the same kind wins, as in numactl") {
    const auto s = parse_fork_args({"--membind=0", "--localalloc", "--physcpubind=0", "--cpunodebind=0"});
    CHECK(s.memory_policy == MemoryPolicy::local);
    CHECK(s.memory_nodes.empty());
    CHECK(s.binding_args == std::vector<std::string>{"--cpunodebind=0", "--localalloc"});
    CHECK(parse_fork_args({"--preferred=0"}).memory_policy == MemoryPolicy::preferred);
  }
}

TEST_CASE("fork args: int lists print as ranges") {
  CHECK(format_int_list({}) == "");
  CHECK(format_int_list({0}) == "0");
  CHECK(format_int_list({0, 1}) == "0,1");
  CHECK(format_int_list({0, 1, 2, 3, 8, 10, 11, 12}) == "0-3,8,10-12");
}

TEST_CASE("fork args: -XX:Allocator names an allocator, preloads its library, last wins") {
  auto s = parse_fork_args({"-XX:Allocator=jemalloc"});
  CHECK(s.allocator == "jemalloc");
  CHECK(s.preload == "libjemalloc.so.2");
  CHECK(allocator_env_value(s) == "-XX:Allocator=jemalloc");
  CHECK(preload_env_value(s, "libx.so") == "libjemalloc.so.2:libx.so");
  CHECK(preload_env_value(s, nullptr) == "libjemalloc.so.2");
  s = parse_fork_args({"-XX:Allocator=tcmalloc", "-XX:Allocator=glibc"});
  CHECK(s.allocator == "glibc");
  CHECK(s.preload.empty());
  CHECK(allocator_env_value(s) == "-XX:Allocator=glibc");
  CHECK(parse_fork_args({"-XX:Allocator=mimalloc"}).preload == "libmimalloc.so.2");
  s = parse_fork_args({"-XX:Allocator=cmh", "-Xmx1g"});
  CHECK(s.preload.empty());
  CHECK(allocator_env_value(s) == "-Xmx1g");
  s = parse_fork_args({"-XX:Allocator=/usr/../usr/lib/x86_64-linux-gnu/libc.so.6"});
  CHECK(s.allocator.find("..") == std::string::npos);
  CHECK(s.preload == s.allocator);
}

TEST_CASE("fork args: -XX:Allocator errors are one line naming the argument") {
  CHECK(error_of({"-XX:Allocator=ptmalloc"}).find("unknown allocator 'ptmalloc'") != std::string::npos);
  CHECK(error_of({"-XX:Allocator="}).find("unknown allocator") != std::string::npos);
  CHECK(error_of({"-XX:Allocator=/nonexistent/libx.so"}).find("does not exist") != std::string::npos);
  CHECK(error_of({"-XX:Allocator=/tmp"}).find("not a regular file") != std::string::npos);
  CHECK(error_of({"-XX:Allocator=/tmp/a b.so"}).find("blank or ':'") != std::string::npos);
  CHECK(error_of({"-XX:Allocator=glibc", "-Xmx64m"}).find("'-Xmx64m' configures cmh's bundled allocator") !=
        std::string::npos);
  CHECK(error_of({"-XX:Allocator=jemalloc", "-Xlog:numa"}).find("-Xlog:numa") != std::string::npos);
  CHECK(error_of({"-Xmx64m", "-XX:Allocator=cmh"}).empty());
}

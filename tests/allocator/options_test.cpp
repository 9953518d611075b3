// SPDX-License-Identifier: MIT
// CMH_ALLOC options, each case in a fresh process: the options string in effect, every
// option taking effect (-Xms committed, -XX:+AlwaysPreTouch making it resident, region
// size, decay time), malformed and unknown options reported once each on stderr with the
// default kept (the program runs on), -Xms above -Xmx clamped, and an explicit
// -XX:+UseNUMA on a one-node machine explaining why NUMA is off. Every child runs on an
// injected one-node topology, so the resolved -XX:-UseNUMA does not depend on the
// machine (the NUMA decision itself is numa_test's).
#include <cmh/alloc.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

int report() {
  // Use the allocator a little, then print what is in effect.
  std::vector<std::string> v(1000, std::string(50, 'o'));
  cmh_alloc_stats_t stats;
  cmh_alloc_stats_get(cmh_alloc_stats_init(&stats));
  std::printf("options=%s\ncommitted=%llu\nresident=%llu\nregion=%llu\nlimit=%llu\n", cmh_alloc_options_string(),
              static_cast<unsigned long long>(stats.committed_bytes),
              static_cast<unsigned long long>(stats.resident_bytes),
              static_cast<unsigned long long>(stats.region_size),
              static_cast<unsigned long long>(stats.heap_limit_bytes));
  return 0;
}

struct Case {
  const char* options;
  const char* expected;  // options string in effect
  int stderr_lines;
  const char* stderr_text;  // substring of stderr, or ""
};

// One node holding every CPU; the memory policy is the process's own.
const char* const kOneNode = "CMH_ALLOC_TOPOLOGY=node0=0-1023";

unsigned long long field(const std::string& out, const char* name) {
  const size_t at = out.find(std::string(name) + "=");
  return at == std::string::npos ? 0 : std::strtoull(out.c_str() + at + strlen(name) + 1, nullptr, 10);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "report") return report();
  const Case cases[] = {
      {"", "-Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000", 0, ""},
      {"-Xmx64m -Xms16m -XX:RegionSize=2m -XX:DecayTime=250",
       "-Xmx64m -Xms16m -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=2m -XX:DecayTime=250", 0, ""},
      {"  -Xms16m\t-XX:+AlwaysPreTouch  ", "-Xms16m -XX:+AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000", 0, ""},
      {"-Xmx1g -XX:-AlwaysPreTouch -XX:-UseNUMA", "-Xmx1g -Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000",
       0, ""},
      // A small heap gets smaller regions.
      {"-Xmx8m", "-Xmx8m -Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=1m -XX:DecayTime=1000", 0, ""},
      {"-Xms64m -Xmx32m", "-Xmx32m -Xms32m -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000", 1,
       "cmh-alloc: -Xms64m exceeds -Xmx32m; using -Xms32m"},
      {"-Xmxfoo -Xms12q -XX:RegionSize=3m -XX:RegionSize=64m -XX:DecayTime=-5 -Xmx0 -XX:Bogus=1",
       "-Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000", 7,
       "ignoring malformed option '-XX:RegionSize=3m'"},
      {"-XX:+UseNUMA", "-Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000", 1,
       "NUMA support disabled: Only a single NUMA node is available"},
      // The purge thread off (its default, on, is not spelled out), and on again.
      {"-XX:-BackgroundPurge", "-Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000 -XX:-BackgroundPurge",
       0, ""},
      {"-XX:-BackgroundPurge -XX:+BackgroundPurge", "-Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000",
       0, ""},
      // -Xlog:numa: in the options string, and its per-node lines at exit (on stderr).
      {"-Xlog:numa", "-Xms0 -XX:-AlwaysPreTouch -XX:-UseNUMA -XX:RegionSize=4m -XX:DecayTime=1000 -Xlog:numa", 1,
       "[cmh-alloc][numa] at exit: NUMA mode off (Only a single NUMA node is available); allocated "},
  };
  for (const Case& c : cases) {
    auto child = cmh_test::run_child({cmh_test::self_path(), "report"},
                                     {std::string("CMH_ALLOC=") + c.options, kOneNode});
    const bool ok = child.code() == 0 && child.out.find(std::string("options=") + c.expected + "\n") != std::string::npos &&
                    cmh_test::count_lines(child.err, "\n") == c.stderr_lines &&
                    child.err.find(c.stderr_text) != std::string::npos;
    if (!ok)
      std::fprintf(stderr, "CMH_ALLOC='%s': expected '%s' and %d stderr line(s); got:\n%s%s\n", c.options, c.expected,
                   c.stderr_lines, child.out.c_str(), child.err.c_str());
    CHECK(ok);
  }
  // -Xms commits at start-up; -XX:+AlwaysPreTouch also makes it resident.
  auto committed = cmh_test::run_child({cmh_test::self_path(), "report"}, {"CMH_ALLOC=-Xms16m"});
  CHECK(field(committed.out, "committed") >= (16u << 20));
  CHECK(field(committed.out, "resident") < (8u << 20));
  auto touched = cmh_test::run_child({cmh_test::self_path(), "report"}, {"CMH_ALLOC=-Xms16m -XX:+AlwaysPreTouch"});
  CHECK(field(touched.out, "resident") >= (16u << 20));
  auto sized = cmh_test::run_child({cmh_test::self_path(), "report"}, {"CMH_ALLOC=-Xmx48m -XX:RegionSize=8m"});
  CHECK_EQ(field(sized.out, "region"), 8u << 20);
  CHECK_EQ(field(sized.out, "limit"), 48u << 20);
  // The -h text names every option.
  const std::string help = cmh_alloc_options_help();
  for (const char* name : {"-Xmx", "-Xms", "AlwaysPreTouch", "UseNUMA", "RegionSize", "DecayTime", "-Xlog:numa"})
    CHECK(help.find(name) != std::string::npos);
  return cmh_test::done("alloc:options");
}

// SPDX-License-Identifier: MIT
// The sampling profilers' parts that need no permission: the profile file's round trip
// and merging of forks, decoding of perf records, loops from backward branches in real
// machine code, the symbolizer on this test executable's own DWARF (a function's name
// and line), owners and short names; then a real sampling window on
// this thread where the machine allows it (skipped with the reason where it does not).
#include <doctest/doctest.h>

#include "analysis/attribution.hpp"
#include "analysis/disassembler.hpp"
#include "analysis/symbolizer.hpp"
#include "sampling/code_map.hpp"
#include "sampling/profile.hpp"
#include "sampling/profile_builder.hpp"
#include "sampling/sample_decoder.hpp"
#include "sampling/sampler.hpp"

#include <linux/perf_event.h>

#include <chrono>
#include <cstring>

namespace {

using namespace cmh::profilers;

[[gnu::noinline]] std::uint64_t spin_divisions(std::uint64_t x, std::uint64_t d, std::int64_t ns) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 1000; ++i) x = x / d + 12345, d = (x & 7) | 3;
  return x;
}

}  // namespace

TEST_CASE("a profile survives its JSON form, and forks merge by module path") {
  sampling::Profile a;
  a.events = {{"cpu-clock", "ns", false}};
  a.stacks = "dwarf";
  a.frequency = 999;
  const auto exe = a.module_index("/bin/exe");
  const auto lib = a.module_index("/lib/libc.so.6");
  sampling::ForkProfile f;
  f.ops = 1'000'000'016;
  f.iterations = 3;
  f.lost = 2;
  f.events.resize(1);
  f.events[0].addresses[{exe, 0x1234}].add(1000);
  f.events[0].addresses[{exe, 0x1234}].add(1002);
  f.events[0].stacks[{{lib, 0x10}, {exe, 0x1234}}].add(7);
  a.forks.push_back(f);
  const sampling::Profile back = sampling::profile_from_json(sampling::profile_to_json(a));
  CHECK(back.modules == a.modules);
  CHECK(back.frequency == 999);
  CHECK(back.stacks == "dwarf");
  REQUIRE(back.forks.size() == 1);
  CHECK(back.forks[0].ops == 1'000'000'016);  // exact, not rounded through a double
  CHECK(back.forks[0].lost == 2);
  CHECK(back.forks[0].events[0].addresses.at({exe, 0x1234}).samples == 2);
  CHECK(back.forks[0].events[0].addresses.at({exe, 0x1234}).period == 2002);

  // The second fork lists its modules in another order: the merge goes by path.
  sampling::Profile b;
  b.events = a.events;
  const auto lib_b = b.module_index("/lib/libc.so.6");
  const auto exe_b = b.module_index("/bin/exe");
  sampling::ForkProfile g;
  g.ops = 10;
  g.events.resize(1);
  g.events[0].addresses[{exe_b, 0x1234}].add(5);
  g.events[0].stacks[{{lib_b, 0x10}, {exe_b, 0x1234}}].add(3);
  b.forks.push_back(g);
  sampling::Profile all;
  sampling::append_forks(all, back);
  sampling::append_forks(all, b);
  REQUIRE(all.forks.size() == 2);
  CHECK(all.forks[1].fork == 2);
  CHECK(sampling::total_ops(all) == 1'000'000'026);
  const auto merged = sampling::merged_event(all, 0);
  const auto exe_all = all.module_index("/bin/exe");
  const auto lib_all = all.module_index("/lib/libc.so.6");
  CHECK(merged.addresses.at({exe_all, 0x1234}).samples == 3);
  CHECK(merged.stacks.at({{lib_all, 0x10}, {exe_all, 0x1234}}).period == 10);
  CHECK_THROWS_AS(sampling::profile_from_json("{\"format\":\"other\"}"), std::runtime_error);
  CHECK_THROWS_AS(sampling::profile_from_json("not json"), std::runtime_error);
}

TEST_CASE("a sample record decodes field by field, in the kernel's order") {
  const std::uint64_t type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
                             PERF_SAMPLE_CALLCHAIN;
  std::vector<std::uint64_t> words = {0,  // header, filled below
                                      77, 0x401000, (std::uint64_t{4242} << 32) | 4241, 250000,
                                      3, PERF_CONTEXT_USER, 0x401000, 0x402010};
  perf_event_header h{PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, static_cast<std::uint16_t>(words.size() * 8)};
  std::memcpy(words.data(), &h, sizeof h);
  sampling::DecodedSample s;
  REQUIRE(sampling::decode_sample(reinterpret_cast<const std::byte*>(words.data()), words.size() * 8, type, 0, s));
  CHECK(s.event == 77);  // the id, before for_each_sample maps it
  CHECK(s.ip == 0x401000);
  CHECK(s.tid == 4242);
  CHECK(s.period == 250000);
  CHECK_FALSE(s.kernel);
  REQUIRE(s.callchain.size() == 3);
  CHECK(s.callchain[2] == 0x402010);
  // Cut short: rejected, never read past the end.
  CHECK_FALSE(sampling::decode_sample(reinterpret_cast<const std::byte*>(words.data()), 5 * 8, type, 0, s));
}

TEST_CASE("backward branches in real machine code are found as loops") {
  // x86-64: 0: xor eax,eax; 2: add eax,1; 5: cmp eax,10; 8: jne 2; a: ret
  const std::uint8_t code[] = {0x31, 0xc0, 0x83, 0xc0, 0x01, 0x83, 0xf8, 0x0a, 0x75, 0xf8, 0xc3};
  const auto ins = analysis::disassemble({reinterpret_cast<const std::byte*>(code), sizeof code}, 0x1000, true);
  REQUIRE(ins.size() == 5);
  CHECK(ins[1].text.rfind("add", 0) == 0);
  CHECK(ins[3].jump);
  REQUIRE(ins[3].target.has_value());
  CHECK(*ins[3].target == 0x1002);
  const auto loops = analysis::find_loops(ins);
  REQUIRE(loops.size() == 1);
  CHECK(loops[0].start == 0x1002);
  CHECK(loops[0].end_jump == 0x1008);
  CHECK(loops[0].end == 0x100a);
}

TEST_CASE("the symbolizer names this executable's functions, lines and inline chains") {
  sampling::Profile profile;
  sampling::CodeMap map(profile);
  const auto at = map.locate(reinterpret_cast<std::uint64_t>(&spin_divisions), false);
  const std::string& path = profile.modules.at(at.module);
  analysis::Symbolizer symbols;
  const auto& m = symbols.module(path);
  REQUIRE_FALSE(m.problem().has_value());
  const auto fn = m.function_at(at.address + 4);
  REQUIRE(fn.has_value());
  CHECK(fn->name.find("spin_divisions") != std::string::npos);
  CHECK(fn->start == at.address);
  CHECK(fn->size > 4);
  const auto line = m.line_at(at.address + 4);
  CHECK(line.file.find("profiler_sampling_test.cpp") != std::string::npos);
  CHECK(line.line > 0);
  // The unit tests build with -g1 (no inlining records): a chain is at least the function
  // itself. e2e:sampled_perfasm checks real inline chains on a -g build.
  const auto chain = m.inline_chain(at.address + 4);
  if (!chain.empty()) CHECK(chain.back().function.find("spin_divisions") != std::string::npos);
  CHECK(m.code(fn->start, fn->size).size() == fn->size);
  CHECK(symbols.module("/no/such/file").problem().has_value());
}

TEST_CASE("owners and short names") {
  const auto id = analysis::benchmark_identity("G", "n", {}, "/bin/exe");
  using analysis::CodeOwner;
  using analysis::InlineFrame;
  CHECK(analysis::owner_of("/bin/exe", "f()", {}, id) == CodeOwner::user);
  CHECK(analysis::owner_of("/bin/exe", "cmh::detail::Loops<X>::time_loop()", {}, id) == CodeOwner::harness);
  CHECK(analysis::owner_of("/lib/x86_64-linux-gnu/libc.so.6", "memcpy", {}, id) == CodeOwner::library);
  CHECK(analysis::owner_of("[kernel]", "[kernel]", {}, id) == CodeOwner::kernel);
  // The innermost function after inlining decides: the body inlined into the harness loop is the user's.
  const std::vector<InlineFrame> body = {{"(anonymous namespace)::cmh_benchmark_G_n::run(A&)", {}},
                                         {"cmh::detail::Loops<X>::time_loop()", {}}};
  CHECK(analysis::owner_of("/bin/exe", "cmh::detail::Loops<X>::time_loop()", body, id) == CodeOwner::user);
  const std::vector<InlineFrame> blackhole = {{"cmh::Blackhole::consume(long)", {}}, body[0], body[1]};
  CHECK(analysis::owner_of("/bin/exe", "cmh::detail::Loops<X>::time_loop()", blackhole, id) == CodeOwner::harness);
  CHECK(analysis::is_body("(anonymous namespace)::cmh_benchmark_G_n::run(A&)", id));
  CHECK_FALSE(analysis::is_body("(anonymous namespace)::cmh_benchmark_G_nn::run(A&)", id));
  const auto group = analysis::benchmark_identity("Q", "pp", {"put", "take"}, "");
  CHECK(analysis::is_body("cmh_group_member_Q_pp_take::run()", group));
  CHECK(analysis::short_name("a::B<c::D<e>, f>::g(int, long)") == "a::B<c::D<…>, f>::g(int, long)");
  CHECK(analysis::short_name("operator<(A, B)") == "operator<(A, B)");
  CHECK(analysis::short_name("f(std::vector<int, std::allocator<int> > const&, std::map<int, int> const&)") == "f(…)");
}

TEST_CASE("a sampling window on this thread sees the code it ran, or says why it cannot") {
  sampling::SamplerConfig config;
  config.events = {*sampling::find_sampled_event("cpu-clock")};
  config.frequency = 2000;
  if (auto reason = sampling::WindowSampler::probe(config)) {
    MESSAGE("sampling is not possible here: " << *reason);
    CHECK(reason->find("perf_event_open") != std::string::npos);
    return;
  }
  sampling::WindowSampler sampler(config);
  REQUIRE_FALSE(sampler.attach_threads().has_value());
  CHECK(sampler.thread_count() >= 1);
  spin_divisions(1u << 30, 7, 5'000'000);  // not sampled: outside the window
  const std::size_t before = sampler.records().size();
  CHECK(before == 0);
  sampler.start();
  const auto x = spin_divisions(1u << 30, 7, 200'000'000);
  sampler.stop();
  CHECK(x != 0);
  sampling::Profile profile;
  sampling::ForkProfile fork;
  sampling::add_samples(sampler, profile, fork);
  std::uint64_t ours = 0, all = 0;
  analysis::Symbolizer symbols;
  for (const auto& [a, w] : fork.events[0].addresses) {
    all += w.samples;
    const auto& path = profile.modules[a.module];
    if (path.front() == '[') continue;
    if (auto fn = symbols.module(path).function_at(a.address); fn && fn->name.find("spin_divisions") != std::string::npos)
      ours += w.samples;
  }
  // A loaded machine may run this thread little of the 200 ms: only that some samples
  // came and that most of them are in the function the window ran.
  CHECK(all > 0);
  CHECK(ours * 2 > all);
}

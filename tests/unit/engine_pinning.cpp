// SPDX-License-Identifier: MIT
// -pin's placement on made-up machines: SMT siblings (cores takes each core's first
// sibling and keeps the control thread off the siblings), hybrid P/E cores, isolated
// CPUs, CPU 0 last, a container's mask with the host's CPU numbers, explicit lists,
// and the one-line errors for too many threads. Also the workers really run on
// their CPUs (sched_getcpu from inside the pool).
#include <doctest/doctest.h>

#include <sched.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "engine/pinning.hpp"
#include "engine/worker_pool.hpp"
#include <cmh/machine/cpu_list.hpp>
#include <cmh/machine/topology.hpp>

using namespace cmh;
using machine::CoreType;

namespace {

/// `cores` physical cores of `smt` siblings each, numbered as Linux numbers most
/// servers: CPU c and c + cores are siblings.
machine::Topology smt_machine(int cores, int smt) {
  machine::Topology t;
  for (int cpu = 0; cpu < cores * smt; ++cpu) {
    machine::Cpu c;
    c.id = cpu;
    c.core = cpu % cores;
    c.package = 0;
    c.node = (cpu % cores) < cores / 2 ? 0 : 1;
    for (int s = 0; s < smt; ++s) c.siblings.push_back(cpu % cores + s * cores);
    t.cpus.push_back(c);
  }
  return t;
}

std::vector<int> all(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

engine::PinPlan planned(std::string_view spec, int workers, const machine::Topology& t, const std::vector<int>& allowed) {
  auto outcome = engine::plan_pinning(spec, workers, t, allowed);
  REQUIRE_MESSAGE(outcome.plan.has_value(), outcome.error);
  return *outcome.plan;
}

std::string error_of(std::string_view spec, int workers, const machine::Topology& t, const std::vector<int>& allowed) {
  auto outcome = engine::plan_pinning(spec, workers, t, allowed);
  return outcome.plan ? std::string("no error") : outcome.error;
}

}  // namespace

TEST_CASE("pinning: -pin values") {
  CHECK_FALSE(engine::pin_spec_problem("none"));
  CHECK_FALSE(engine::pin_spec_problem("cores"));
  CHECK_FALSE(engine::pin_spec_problem("3,1-2"));
  CHECK(*engine::pin_spec_problem("core") == "\"core\" is not none, cpus, cores or a CPU list such as 0,2-3");
  CHECK(*engine::pin_spec_problem("1,1") == "CPU 1 is listed twice in 1,1");
  CHECK(engine::pin_spec_problem("2-1"));
  CHECK(engine::pin_spec_problem(""));
  CHECK_FALSE(engine::pins_workers("none"));
  CHECK(engine::pins_workers("cpus"));
}

TEST_CASE("pinning: cores takes each core's first sibling and keeps the control thread off the siblings") {
  const auto t = smt_machine(4, 2);  // cores {0,4} {1,5} {2,6} {3,7}
  const auto p = planned("cores", 3, t, all(8));
  // CPU 0's core goes last; each worker on the first sibling of its own core.
  CHECK(p.worker_cpus == std::vector<int>{1, 2, 3});
  CHECK(p.control_cpus == std::vector<int>{0, 4});
  CHECK(p.record.mode == "cores");
  CHECK(p.record.allowed_cpus == "0-7");
  CHECK(p.record.control_cpus == "0,4");
  REQUIRE(p.record.threads.size() == 3);
  CHECK(p.record.threads[2].cpu == 3);
  CHECK(p.record.threads[2].core == 3);
  CHECK(p.record.threads[2].node == 1);
  CHECK(p.record.notes.empty());
  // Four workers: every core; the control thread has only the siblings left.
  const auto four = planned("cores", 4, t, all(8));
  CHECK(four.worker_cpus == std::vector<int>{1, 2, 3, 0});
  CHECK(four.control_cpus == std::vector<int>{4, 5, 6, 7});
  CHECK(four.record.notes == std::vector<std::string>{"the control thread runs on the workers' SMT siblings: no other core is left"});
  CHECK(error_of("cores", 5, t, all(8)) ==
        "-pin cores: 5 worker threads, but this process may run on only 4 physical cores (CPUs 0-7): run fewer "
        "threads, or -pin cpus to put two on one core");
}

TEST_CASE("pinning: cpus uses every core's first sibling before any second one") {
  const auto t = smt_machine(2, 2);  // cores {0,2} {1,3}
  CHECK(planned("cpus", 2, t, all(4)).worker_cpus == std::vector<int>{1, 0});
  CHECK(planned("cpus", 3, t, all(4)).worker_cpus == std::vector<int>{1, 0, 3});
  const auto full = planned("cpus", 4, t, all(4));
  CHECK(full.worker_cpus == std::vector<int>{1, 0, 3, 2});
  CHECK(full.control_cpus.empty());
  CHECK(full.record.control_cpus == "0-3");
  CHECK(full.record.notes == std::vector<std::string>{"the control thread shares the workers' CPUs: no other CPU is left"});
  CHECK(error_of("cpus", 5, t, all(4)) == "-pin cpus: 5 worker threads, but this process may run on only 4 CPUs (0-3)");
}

TEST_CASE("pinning: a container's mask with the host's CPU numbers, and CPUs outside sysfs") {
  const auto t = smt_machine(8, 2);
  // --cpuset-cpus=5,6,13: cores {5,13} and {6,14}; only 13 of the first core's siblings... both 5 and 13 allowed.
  const auto p = planned("cores", 2, t, {5, 6, 13});
  CHECK(p.worker_cpus == std::vector<int>{5, 6});
  CHECK(p.control_cpus.empty() == false);
  CHECK(p.control_cpus == std::vector<int>{13});
  CHECK(error_of("cores", 3, t, {5, 6, 13}) ==
        "-pin cores: 3 worker threads, but this process may run on only 2 physical cores (CPUs 5,6,13): run fewer "
        "threads, or -pin cpus to put two on one core");
  // No topology at all (no sysfs): every CPU is a core of its own, core and node unknown.
  const auto bare = planned("cores", 2, machine::Topology{}, {0, 1, 2});
  CHECK(bare.worker_cpus == std::vector<int>{1, 2});
  CHECK(bare.record.threads[0].core == -1);
  CHECK(bare.record.threads[0].node == -1);
}

TEST_CASE("pinning: hybrid CPUs fill performance cores first, isolated CPUs before others") {
  machine::Topology t;
  for (int cpu = 0; cpu < 6; ++cpu) {
    machine::Cpu c;
    c.id = cpu;
    c.core = cpu < 4 ? cpu / 2 * 4 : cpu + 4;
    c.siblings = cpu < 4 ? std::vector<int>{cpu / 2 * 2, cpu / 2 * 2 + 1} : std::vector<int>{cpu};
    c.type = cpu < 4 ? CoreType::performance : CoreType::efficiency;
    t.cpus.push_back(c);
  }
  t.hybrid = true;
  const auto p = planned("cores", 2, t, all(6));
  CHECK(p.worker_cpus == std::vector<int>{2, 0});
  CHECK(p.record.threads[0].core_type == "P");
  CHECK(p.record.notes.empty());
  const auto mixed = planned("cores", 3, t, all(6));
  CHECK(mixed.worker_cpus == std::vector<int>{2, 0, 4});
  CHECK(mixed.record.notes == std::vector<std::string>{"the workers run on both performance and efficiency cores, whose speeds differ"});
  // Isolated CPUs come first.
  auto iso = smt_machine(4, 1);
  iso.cpus[3].isolated = true;
  CHECK(planned("cpus", 2, iso, all(4)).worker_cpus == std::vector<int>{3, 1});
}

TEST_CASE("pinning: an explicit list, in the order given, within the mask") {
  const auto t = smt_machine(4, 1);
  CHECK(planned("3,1", 2, t, all(4)).worker_cpus == std::vector<int>{3, 1});
  CHECK(planned("0-3", 2, t, all(4)).worker_cpus == std::vector<int>{0, 1});
  CHECK(error_of("5", 1, t, all(4)) == "-pin 5: CPU 5 is not one this process may run on (0-3)");
  CHECK(error_of("1,2", 3, t, all(4)) == "-pin 1,2: 2 CPUs for 3 worker threads: name one CPU per thread");
  CHECK(error_of("2,2", 1, t, all(4)) == "-pin 2,2: CPU 2 is listed twice in 2,2");
  CHECK(error_of("cpus", 1, t, {}) == "-pin cpus: this process's CPU affinity mask cannot be read");
}

TEST_CASE("pinning: the pool's workers run on their CPUs, and the control thread moves back") {
  const std::vector<int> allowed = machine::thread_affinity();
  REQUIRE_FALSE(allowed.empty());
  const int cpu = allowed.back();
  std::atomic<int> seen{-1};
  {
    engine::WorkerPool pool(1, {cpu});
    struct Ctx {
      std::atomic<int>* seen;
    } ctx{&seen};
    pool.post(0, engine::Job{[](void* c, int) { static_cast<Ctx*>(c)->seen->store(sched_getcpu()); }, &ctx});
    pool.wait();
  }
  CHECK(seen.load() == cpu);
  {
    // Every thread of the process moves, a helper thread too, and comes back.
    std::atomic<int> helper_tid{0};
    std::atomic<bool> stop{false};
    std::thread helper([&] {
      helper_tid = static_cast<int>(::gettid());
      while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    while (helper_tid == 0) std::this_thread::yield();
    std::atomic<int> late_tid{0};
    std::thread late;
    {
      engine::ProcessAffinityScope scope({allowed.front()});
      CHECK(machine::thread_affinity() == std::vector<int>{allowed.front()});
      CHECK(machine::thread_affinity(helper_tid) == std::vector<int>{allowed.front()});
      // A thread started later, that widened its mask: move_others() moves it too,
      // unless it is kept (a worker).
      late = std::thread([&] {
        late_tid = static_cast<int>(::gettid());
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      });
      while (late_tid == 0) std::this_thread::yield();
      REQUIRE(machine::set_thread_affinity(allowed, late_tid) == 0);
      scope.move_others({late_tid});
      CHECK(machine::thread_affinity(late_tid) == allowed);
      scope.move_others({});
      CHECK(machine::thread_affinity(late_tid) == std::vector<int>{allowed.front()});
    }
    CHECK(machine::thread_affinity() == allowed);
    CHECK(machine::thread_affinity(helper_tid) == allowed);
    CHECK(machine::thread_affinity(late_tid) == allowed);
    stop = true;
    helper.join();
    late.join();
  }
  // A CPU the process may not use: the pool refuses to start, naming it.
  if (allowed.back() < machine::kMaxCpu) {
    try {
      engine::WorkerPool pool(1, {machine::kMaxCpu});
      FAIL("the pool started on a CPU outside the mask");
    } catch (const std::system_error& e) {
      CHECK(std::string(e.what()).find("pinning worker 0 to CPU 8191") != std::string::npos);
    }
  }
}

TEST_CASE("pinning: the report's summary line") {
  Pinning p;
  p.mode = "cores";
  p.threads = {{0, 2, 1, 0, 0, "P"}, {1, 3, 2, 0, -1, ""}};
  p.control_cpus = "0-1";
  p.notes = {"a note"};
  CHECK(engine::pinning_summary(p) ==
        "thread 0 on CPU 2 (core 1 P, node 0), thread 1 on CPU 3 (core 2); control thread on 0-1; a note");
}

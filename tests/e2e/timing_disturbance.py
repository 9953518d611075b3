"""End-to-end: a benchmark run beside a deliberate CPU hog pinned to the same CPU
prints the disturbance warning naming the benchmark, and its JSON records the
disturbed iterations. The hog and the benchmark (host and fork inherit the
affinity) share one CPU whatever the machine's core count, so the benchmark's
threads are preempted regardless of other load. Two benchmarks: Timing.chain
(pure CPU work) and Timing.spawn (starts and joins a thread per op, so its
measuring thread blocks and is judged by how crowded its CPU was). Without the
hog, Timing.spawn must not warn, but that is asserted only when the JSON says
other processes used less than 5 % of its CPU in every iteration: this machine
may never be quiet. The quiet rule is unit-tested on recorded evidence
(stats_disturbance.cpp)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from cmhtest import check, done, run

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="cmh-disturbance-")
cpu = min(os.sched_getaffinity(0))


def run_pinned(benchmark, name, extra=()):
    path = os.path.join(work, name + ".json")
    proc = run("/usr/bin/taskset", ["-c", str(cpu), args.bench, benchmark, *extra, "-f", "1", "-wi", "1",
                                    "-w", "100ms", "-i", "3", "-r", "300ms", "-bm", "avgt", "-rf", "json",
                                    "-rff", path], timeout=120, check_exit=0)
    with open(path) as f:
        return proc.stdout, json.load(f)[0]


def with_hog(fn):
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        os.sched_setaffinity(hog.pid, {cpu})
        return fn()
    finally:
        hog.kill()
        hog.wait()


def check_cpu_within_window(flags):
    # CPU time cannot exceed the window by more than the clock reads at its edges. An
    # iteration whose worker barely ran (its window opened after the stop signal, a few
    # microseconds) has a ratio that clock granularity dominates, so the bound is 5 %
    # plus 1 ms of CPU time: a CPU clock read wrongly still fails it on a 300 ms window.
    for it in flags:
        check(it["cpuNs"] is not None and it["windowNs"] is not None and it["windowNs"] > 0, f"json: {it}")
        check(0 <= it["cpuNs"] <= 1.05 * it["windowNs"] + 1_000_000, f"json: CPU time beyond the window {it}")
        check(it["cpuWall"] == it["cpuNs"] / it["windowNs"] or abs(it["cpuWall"] * it["windowNs"] - it["cpuNs"]) < 1,
              f"json: cpuWall is not cpuNs / windowNs {it}")


def flags_of(rec):
    return [it for fork in rec["cmh"]["disturbance"]["iterations"] for it in fork]


# Timing.chain beside the hog.
out, rec = with_hog(lambda: run_pinned("Timing.chain", "chain", ["-p", "steps=1000"]))
warning = "# *** WARNING: Timing.chain: the score is likely inflated by other work on this machine"
check(warning in out, f"no disturbance warning naming the benchmark:\n{out[-3000:]}")
check(out.count(warning) == 2, "the warning belongs under the result and again under the summary table")
check("(disturbed: CPU/wall " in out, f"no disturbed iteration marked:\n{out[-3000:]}")
check('Disturbance "Timing.chain": ' in out, "no disturbance line in the result")
check('CPU time "Timing.chain:cpu.time.norm"' in out, "no cpu.time.norm block")
d = rec["cmh"]["disturbance"]
check(d["likelyInflated"] is True and d["disturbedIterations"] >= 1 and d["measuredIterations"] == 3, f"json: {d}")
flags = flags_of(rec)
check(len(flags) == 3 and any(it["disturbed"] for it in flags), f"json: per-iteration flags {flags}")
check_cpu_within_window(flags)
check(all(set(it) >= {"waited", "crowded", "ownThreadsOnly", "waitShare", "othersShare", "idleShare"}
          for it in flags), f"json: evidence fields {flags}")
check("own threads only" in d["rule"], f"json: rule {d['rule']}")
print("loaded chain:", {k: d[k] for k in ("disturbedIterations", "lowestCpuWall", "mostInvoluntarySwitches",
                                          "waitShareMax", "othersShareMax")})
check(rec["cmh"]["cpuTimeNorm"]["score"] > 0, "json: no cpuTimeNorm")
# JMH's own keys are untouched: the primary score is still there in JMH's shape.
check(set(rec["primaryMetric"]) >= {"score", "scoreError", "scoreConfidence", "rawData"}, "json: primaryMetric")

# Timing.spawn beside the hog: a body that blocks on its joins is flagged by its crowded CPU.
out, rec = with_hog(lambda: run_pinned("Timing.spawn", "spawn-hog"))
warning = "# *** WARNING: Timing.spawn: the score is likely inflated by other work on this machine"
d = rec["cmh"]["disturbance"]
flags = flags_of(rec)
print("loaded spawn:", {k: d[k] for k in ("disturbedIterations", "waitShareMax", "othersShareMax")},
      [(it["blocking"], it["crowded"], it["othersShare"], it["idleShare"]) for it in flags])
check(warning in out, f"Timing.spawn beside the hog: no disturbance warning:\n{out[-3000:]}")
check(d["likelyInflated"] is True and d["disturbedIterations"] >= 1, f"json: {d}")
check_cpu_within_window(flags)

# Timing.spawn alone: no warning, when the CPU really was quiet.
out, rec = run_pinned("Timing.spawn", "spawn-quiet")
d = rec["cmh"]["disturbance"]
flags = flags_of(rec)
others = [it["othersShare"] for it in flags]
print("quiet spawn:", {k: d[k] for k in ("disturbedIterations", "waitShareMax", "othersShareMax")},
      [(it["blocking"], it["involuntarySwitches"], it["othersShare"], it["idleShare"]) for it in flags])
check_cpu_within_window(flags)
if others and all(o is not None and o < 0.05 for o in others):
    check(warning not in out, f"Timing.spawn on a quiet CPU warned:\n{out[-3000:]}")
    check(d["disturbedIterations"] == 0, f"json: quiet Timing.spawn flagged {flags}")
else:
    print(f"quiet spawn: not asserted, other processes used {others} of its CPU")

done()

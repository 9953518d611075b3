"""End-to-end: a benchmark run beside a deliberate CPU hog pinned to the same CPU
prints the disturbance warning naming the benchmark, and its JSON records the
disturbed iterations. The hog and the benchmark (host and fork inherit the
affinity) share one CPU whatever the machine's core count, so the benchmark's
threads are preempted regardless of other load. The quiet case is a unit test on
synthetic evidence (stats_disturbance.cpp): this machine may never be quiet."""
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

hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
try:
    os.sched_setaffinity(hog.pid, {cpu})
    path = os.path.join(work, "loaded.json")
    proc = run("/usr/bin/taskset", ["-c", str(cpu), args.bench, "Timing.chain", "-p", "steps=1000", "-f", "1",
                                    "-wi", "1", "-w", "100ms", "-i", "3", "-r", "300ms", "-bm", "avgt",
                                    "-rf", "json", "-rff", path], timeout=120, check_exit=0)
finally:
    hog.kill()
    hog.wait()

out = proc.stdout
warning = "# *** WARNING: Timing.chain: the score is likely inflated by other work on this machine"
check(warning in out, f"no disturbance warning naming the benchmark:\n{out[-3000:]}")
check(out.count(warning) == 2, "the warning belongs under the result and again under the summary table")
check("(disturbed: CPU/wall " in out, f"no disturbed iteration marked:\n{out[-3000:]}")
check('Disturbance "Timing.chain": ' in out, "no disturbance line in the result")
check('CPU time "Timing.chain:cpu.time.norm"' in out, "no cpu.time.norm block")
with open(path) as f:
    rec = json.load(f)[0]
d = rec["cmh"]["disturbance"]
check(d["likelyInflated"] is True and d["disturbedIterations"] >= 1 and d["measuredIterations"] == 3, f"json: {d}")
flags = [it for fork in d["iterations"] for it in fork]
check(len(flags) == 3 and any(it["disturbed"] for it in flags), f"json: per-iteration flags {flags}")
check(all(it["cpuWall"] is not None and 0 <= it["cpuWall"] <= 1.05 for it in flags), f"json: cpuWall {flags}")
print("loaded run:", {k: d[k] for k in ("disturbedIterations", "lowestCpuWall", "mostInvoluntarySwitches")})
check(rec["cmh"]["cpuTimeNorm"]["score"] > 0, "json: no cpuTimeNorm")
# JMH's own keys are untouched: the primary score is still there in JMH's shape.
check(set(rec["primaryMetric"]) >= {"score", "scoreError", "scoreConfidence", "rawData"}, "json: primaryMetric")

done()

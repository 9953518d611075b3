"""End-to-end: -quick runs one fork of short iterations and says so in the header;
-prec adds iterations within each fork (also with -f 0), then forks, until a stop
condition, and says which one stopped it (console and JSON). No timing is
asserted: only what ran and what the report says."""
import argparse
import json
import os
import re
import tempfile

from cmhtest import check, done, run

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="cmh-presets-")

proc = run(args.bench, ["Timing.chain", "-p", "steps=1000", "-quick", "-bm", "avgt"], timeout=120, check_exit=0)
out = proc.stdout
check("# Quick run (-quick): " in out, f"no quick-run line in the header:\n{out[:2000]}")
check("# Fork: 1 of 1" in out and "# Fork: 2 of" not in out, "-quick did not run exactly one fork")
check("# Warmup: 2 iterations, 100 ms each" in out and "# Measurement: 5 iterations, 100 ms each" in out,
      f"-quick iterations:\n{out[:2000]}")
proc = run(args.bench, ["Timing.chain", "-p", "steps=1000", "-quick", "-i", "2", "-bm", "avgt"], timeout=120,
           check_exit=0)
check("# Measurement: 2 iterations, 100 ms each" in proc.stdout, "an explicit -i did not win over -quick")

# Two threads in average-time mode: the header names the primary, and the whole-process
# time per op is reported beside it, in the console, the JSON and as gbench's real_time.
gb = os.path.join(work, "threads.gbench.json")
js = os.path.join(work, "threads.json")
proc = run(args.bench, ["Timing.chain", "-p", "steps=1000", "-quick", "-i", "3", "-t", "2", "-bm", "avgt",
                        "-rf", "json,gbench", "-rff", js], timeout=120, check_exit=0)
check("# Score: per-thread average time (JMH)" in proc.stdout, f"no # Score: line:\n{proc.stdout[:2500]}")
check('Whole-process time "Timing.chain:total.time.norm"' in proc.stdout, "no total.time.norm block")
with open(js) as f:
    c = json.load(f)[0]["cmh"]
with open(gb) as f:
    rows = [b for b in json.load(f)["benchmarks"] if b["run_type"] == "iteration"]
if check("totalTimeNorm" in c and len(rows) == 1, f"json: {list(c)}; gbench rows {rows}"):
    total = c["totalTimeNorm"]["score"]
    check(abs(rows[0]["real_time"] - total) <= 1e-6 * total, f"gbench real_time {rows[0]['real_time']} is not "
          f"the whole-process time per op {total}")
    check(c["scoreMeaning"].startswith("per-thread average time"), c["scoreMeaning"])

PREC = re.compile(r"^# Precision: target ±(\S+) %, reached ±(\S+?)( %)? with (\d+) measurement iterations? "
                  r"\((\d+) planned per fork\) (in the host process \(-f 0\)|in (\d+) forks?); "
                  r"stopped because (.*)$", re.M)
REASONS = {"the target was reached": "target", "the iteration cap (50 per fork) was reached": "iterationCap",
           "the fork cap (20) was reached": "forkCap", "the time budget (-maxTime 20 s) ran out": "timeBudget"}


def check_precision(proc, path, target, in_process):
    """The # Precision: line, the JSON's cmh.precision, and that the stated reason holds."""
    m = PREC.search(proc.stdout)
    if not check(m is not None, f"no # Precision: line:\n{proc.stdout[-3000:]}"):
        return None
    check(float(m.group(1)) == target * 100, f"target printed as {m.group(1)}")
    iterations, planned = int(m.group(4)), int(m.group(5))
    check(planned == 3, f"planned {planned}")
    check((m.group(7) is None) == in_process, f"fork part {m.group(6)!r}")
    reason = m.group(8)
    check(reason in REASONS, f"unknown stop reason {reason!r}")
    with open(path) as f:
        rec = json.load(f)[0]
    p = rec["cmh"].get("precision")
    if not check(p is not None, f"no cmh.precision in the JSON: {list(rec['cmh'])}"):
        return None
    check(p["stoppedBy"] == REASONS.get(reason), f"JSON stoppedBy {p['stoppedBy']} vs console {reason!r}")
    check(p["iterations"] == iterations, f"JSON iterations {p['iterations']} vs console {iterations}")
    raw = rec["primaryMetric"]["rawData"]
    check(sum(len(f) for f in raw) == iterations, "the JSON does not hold every iteration -prec ran")
    forks = len(raw)
    if not in_process:
        check(1 <= forks <= 20 and int(m.group(7)) == forks, f"forks {forks} vs {m.group(7)}")
    check(iterations >= planned * forks, f"{iterations} iterations, fewer than planned")
    pm = rec["primaryMetric"]
    if p["stoppedBy"] == "target":
        check(pm["scoreError"] <= target * pm["score"] + 1e-9, f"target claimed but error {pm['scoreError']} of "
              f"{pm['score']}")
    elif p["stoppedBy"] == "iterationCap":
        check(any(len(f) == 50 for f in raw), f"iteration cap claimed, forks ran {[len(f) for f in raw]}")
    return p


# Forked: iterations grow within the fork, then forks are added.
path = os.path.join(work, "prec.json")
proc = run(args.bench, ["Timing.chain", "-p", "steps=1000", "-f", "1", "-wi", "1", "-w", "20ms", "-i", "3", "-r",
                        "20ms", "-bm", "avgt", "-prec", "30%", "-maxTime", "20s", "-rf", "json", "-rff", path],
           timeout=120, check_exit=0)
check_precision(proc, path, 0.30, in_process=False)

# -f 0: only iterations can grow. A target of 0.01 % is out of reach of 3 iterations of a
# real benchmark (their scores are never that close), so the count must have grown: up to
# the cap, or until the budget ran out; a claimed target is checked against the error.
path = os.path.join(work, "prec0.json")
proc = run(args.bench, ["Timing.chain", "-p", "steps=1000", "-f", "0", "-wi", "1", "-w", "10ms", "-i", "3", "-r",
                        "10ms", "-bm", "avgt", "-prec", "0.01%", "-maxTime", "20s", "-rf", "json", "-rff", path],
           timeout=120, check_exit=0)
p0 = check_precision(proc, path, 0.0001, in_process=True)
if p0 is not None and p0["stoppedBy"] != "target":
    check(p0["iterations"] > 3, f"-f 0 -prec did not add iterations: {p0}")

bad = run(args.bench, ["Timing.chain", "-prec", "150%"], timeout=60)
check(bad.returncode == 1 and "is not a precision" in bad.stdout + bad.stderr, f"bad -prec: {bad.stderr}")

done()

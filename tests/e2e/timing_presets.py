"""End-to-end: -quick runs one fork of short iterations and says so in the header;
-prec adds forks until a stop condition and says which one stopped it. No timing is
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

path = os.path.join(work, "prec.json")
proc = run(args.bench, ["Timing.chain", "-p", "steps=1000", "-f", "1", "-wi", "1", "-w", "20ms", "-i", "3", "-r",
                        "20ms", "-bm", "avgt", "-prec", "30%", "-maxTime", "20s", "-rf", "json", "-rff", path],
           timeout=120, check_exit=0)
m = re.search(r"^# Precision: target ±30\.00 %, reached ±(\S+)( %)? after (\d+) forks?; stopped because (.*)$",
              proc.stdout, re.M)
if check(m is not None, f"no # Precision: line:\n{proc.stdout[-3000:]}"):
    forks = int(m.group(3))
    reason = m.group(4)
    check(reason in ("the target was reached", "the fork cap (20) was reached") or
          reason.startswith("the time budget (-maxTime 20 s) ran out"), f"unknown stop reason {reason!r}")
    check(1 <= forks <= 20, f"forks {forks}")
    with open(path) as f:
        rec = json.load(f)[0]
    check(len(rec["primaryMetric"]["rawData"]) == forks, "the JSON does not hold every fork -prec ran")
    if reason == "the target was reached":
        p = rec["primaryMetric"]
        check(p["scoreError"] <= 0.3 * p["score"] + 1e-9, f"target claimed but error {p['scoreError']} of {p['score']}")

bad = run(args.bench, ["Timing.chain", "-prec", "150%"], timeout=60)
check(bad.returncode == 1 and "is not a precision" in bad.stdout + bad.stderr, f"bad -prec: {bad.stderr}")

done()

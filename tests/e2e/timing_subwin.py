"""End-to-end: -subwin 1ms adds the sub-window median to the Robust line and to the
JSON's cmh.subwindowMedian, forked and in process, in both time modes; without it
neither appears; -prof alloc still counts 0 B/op for a body that does not allocate
(the sub-window buffer is sized before the window). No timing is asserted: an iteration
whose worker barely ran (on a loaded machine) may record no sub-window, so only the unit,
the shape (within a factor of 100 of the mean, where a wrong unit or shape is off by 1e6
or more) and the counts' consistency are checked."""
import argparse
import json
import os
import re
import tempfile

from cmhtest import check, done, run

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="cmh-subwin-")
COMMON = ["Timing.chain", "-p", "steps=1000", "-wi", "1", "-w", "50ms", "-i", "3", "-r", "100ms"]


def run_json(name, extra):
    path = os.path.join(work, name + ".json")
    proc = run(args.bench, COMMON + extra + ["-rf", "json", "-rff", path], timeout=120, check_exit=0)
    with open(path) as f:
        return proc.stdout, json.load(f)[0]


for mode, forks in (("avgt", "1"), ("thrpt", "0")):
    out, rec = run_json(f"{mode}-{forks}", ["-bm", mode, "-f", forks, "-subwin", "1ms"])
    unit = rec["primaryMetric"]["scoreUnit"]
    m = re.search(r'Robust "Timing\.chain": .*; sub-window median (\S+) (\S+) \((\d+) sub-windows of ~(\S+ \S+) '
                  r'in (\d+) iterations\)', out)
    if check(m is not None, f"{mode} -f {forks}: no sub-window median on the Robust line:\n{out[-2500:]}"):
        check(m.group(2) == unit, f"unit {m.group(2)} against {unit}")
        check(1 <= int(m.group(5)) <= 3, f"iterations {m.group(5)}")
    sw = rec["cmh"].get("subwindowMedian")
    if check(sw is not None, f"{mode} -f {forks}: no cmh.subwindowMedian: {list(rec['cmh'])}"):
        check(sw["score"] > 0 and sw["targetLengthNs"] == 1_000_000 and 1 <= sw["iterations"] <= 3, f"json: {sw}")
        # Every iteration counted has at least one sub-window; a 100 ms iteration holds at most
        # 2 * 100 + 64 (the buffer's size for a 1 ms target).
        check(sw["iterations"] <= sw["subwindows"] <= sw["iterations"] * 264, f"json: sub-window count {sw}")
        check(sw["method"].startswith("median"), f"json: {sw}")
        score = rec["primaryMetric"]["score"]
        # Same unit and shape as the primary.
        check(score / 100 <= sw["score"] <= score * 100, f"sub-window median {sw['score']} against score {score}")

# An empty body: the chunked loop must still call it once per op (a folded loop gave
# 1e-11 ns/op and an infinite sub-window median).
path = os.path.join(work, "empty.json")
run(args.bench, ["Timing.empty", "-f", "0", "-wi", "1", "-w", "50ms", "-i", "3", "-r", "100ms", "-bm", "avgt",
                 "-subwin", "1ms", "-rf", "json", "-rff", path], timeout=120, check_exit=0)
with open(path) as f:
    empty = json.load(f)[0]
sw, score = empty["cmh"].get("subwindowMedian", {}), empty["primaryMetric"]["score"]
check(isinstance(sw.get("score"), float) and 0.01 < sw["score"] < 1e6, f"empty body: sub-window median {sw}")
check(isinstance(score, float) and 0.01 < score < 1e6, f"empty body: score {score} ns/op")

out, rec = run_json("off", ["-bm", "avgt", "-f", "0"])
check("sub-window median" not in out and "subwindowMedian" not in rec["cmh"], "a sub-window median without -subwin")

out, rec = run_json("alloc", ["-bm", "avgt", "-f", "1", "-subwin", "1ms", "-prof", "alloc"])
norm = rec.get("secondaryMetrics", {}).get("alloc.rate.norm")
if check(norm is not None, f"no alloc.rate.norm: {list(rec.get('secondaryMetrics', {}))}"):
    check(norm["score"] == 0, f"-subwin made -prof alloc count {norm['score']} B/op")

bad = run(args.bench, ["Timing.chain", "-subwin", "0ms"], timeout=60)
check(bad.returncode == 1 and "should be positive" in bad.stdout + bad.stderr, f"bad -subwin: {bad.stderr}")

done()

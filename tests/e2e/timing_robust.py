"""End-to-end: the robust estimate (issue 31). -subwin auto records sub-windows with
per-window descheduling evidence and the JSON's cmh.robustEstimate holds the estimate, its
95 % interval, the method the evidence chose and that evidence, forked and in process, in
both time modes; the Robust line starts with it; -prec 2%:robust targets it and says so;
cmh-compare --metric robust compares on it. No timing is asserted: only units, shapes,
the consistency of the counts and the method with its evidence (a loaded machine may leave
an iteration without clean windows, and then the method falls back, which is checked
for what it says, not prevented)."""
import argparse
import json
import math
import os
import re
import tempfile

from cmhtest import check, done, run

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
parser.add_argument("--compare", required=True)
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="cmh-robust-")
COMMON = ["Timing.chain", "-p", "steps=1000", "-wi", "1", "-w", "50ms", "-i", "3", "-r", "100ms"]
METHODS = {"cleanSubwindows", "iterationScores", "cpuTime", "undisturbedIterations"}


def run_json(name, extra, exit_code=0):
    path = os.path.join(work, name + ".json")
    proc = run(args.bench, COMMON + extra + ["-rf", "json", "-rff", path], timeout=120, check_exit=exit_code)
    with open(path) as f:
        return proc.stdout, json.load(f)[0], path


def check_estimate(label, out, rec, forks, subwin, prec=False):
    est = rec["cmh"].get("robustEstimate")
    if not check(est is not None, f"{label}: no cmh.robustEstimate: {list(rec['cmh'])}"):
        return None
    unit = rec["primaryMetric"]["scoreUnit"]
    check(est["scoreUnit"] == unit and est["confidence"] == 0.95, f"{label}: unit/confidence {est}")
    check(est["method"] in METHODS, f"{label}: method {est['method']}")
    lo, hi = est["interval"]
    score = est["score"]
    check(isinstance(score, float) and score > 0, f"{label}: score {score}")
    check(lo <= score <= hi, f"{label}: {score} outside its interval [{lo}, {hi}]")
    primary = rec["primaryMetric"]["score"]
    check(primary / 100 <= score <= primary * 100, f"{label}: estimate {score} against score {primary} ({unit})")
    # The stall margin: only on clean sub-windows, inside the interval, named on the line.
    share = est.get("stallShare")
    if check(isinstance(share, (int, float)) and 0 <= share < 1, f"{label}: stallShare {share}"):
        if est["method"] != "cleanSubwindows":
            check(share == 0, f"{label}: a stall margin on {est['method']}: {share}")
        check((hi - score) >= share * score * (1 - 1e-9) and (score - lo) >= share * score * (1 - 1e-9),
              f"{label}: interval [{lo}, {hi}] narrower than the stall margin {share} of {score}")
        check(("stall margin ±" in out) == (share > 0), f"{label}: the Robust line and stallShare {share} disagree")
    ev = est["evidence"]
    if not prec:
        check(ev["iterations"] == 3 * max(1, forks), f"{label}: iterations {ev}")
    check(len(est["rawData"]) == max(1, forks) and sum(len(f) for f in est["rawData"]) == ev["iterationsUsed"],
          f"{label}: rawData against iterationsUsed: {est['rawData']} {ev}")
    check(est["clusteredBy"] == ("fork" if forks >= 2 else "iteration"), f"{label}: clusteredBy {est['clusteredBy']}")
    if subwin:
        # -subwin auto: a length within its bounds, evidence named, counts consistent.
        check(10_000 <= ev["subwindowLengthNs"] <= 1_000_000, f"{label}: auto length {ev['subwindowLengthNs']}")
        check(ev["windowEvidence"] in ("rseq", "getrusage", None), f"{label}: evidence {ev['windowEvidence']}")
        check(0 <= ev["rejectedSubwindows"] <= ev["subwindows"] and ev["subwindows"] > 0, f"{label}: windows {ev}")
        enough = ev["cleanIterations"] >= max(2, ev["iterations"] / 2)
        check((est["method"] == "cleanSubwindows") == enough, f"{label}: method against clean iterations: {est}")
        if est["method"] != "cleanSubwindows":
            check("too few clean sub-windows" in est.get("note", ""), f"{label}: a fallback without its reason: {est}")
    else:
        check(ev["subwindows"] == 0 and est["method"] != "cleanSubwindows", f"{label}: windows without -subwin: {est}")
    m = re.search(r'Robust "Timing\.chain": (\S+) (?:\[(\S+), (\S+)\] )?(\S+) \(95 %, ', out)
    if check(m is not None, f"{label}: the Robust line does not start with the estimate:\n{out[-2500:]}"):
        check(m.group(4) == unit, f"{label}: Robust line unit {m.group(4)} against {unit}")
        check(math.isclose(float(m.group(1)), score, rel_tol=1e-3, abs_tol=1e-3), f"{label}: line {m.group(1)} vs {score}")
    return est


for mode, forks in (("avgt", 2), ("thrpt", 0)):
    out, rec, _ = run_json(f"{mode}-{forks}", ["-bm", mode, "-f", str(forks), "-subwin", "auto"])
    check_estimate(f"{mode} -f {forks}", out, rec, forks, True)

# Without -subwin: still an estimate, from the iteration scores or CPU time.
out, rec, base = run_json("plain", ["-bm", "avgt", "-f", "2"])
check_estimate("no -subwin", out, rec, 2, False)

# -prec 2%:robust: the robust interval is the target, and -subwin auto comes with it.
out, rec, new = run_json("prec", ["-bm", "avgt", "-f", "2", "-prec", "2%:robust", "-maxTime", "5s"])
line = next((l for l in out.splitlines() if l.startswith("# Precision:")), "")
check(line.startswith("# Precision: target ±2.00 % of the robust estimate (95 %), reached ±"), f"precision: {line!r}")
prec = rec["cmh"].get("precision", {})
check(prec.get("of") == "robustEstimate" and "betweenForkDrift" in prec, f"precision JSON: {prec}")
check_estimate("-prec 2%:robust", out, rec, len(rec["cmh"]["robustEstimate"]["rawData"]), True, prec=True)
drift = prec.get("betweenForkDrift")
if drift is not None and drift > 0.02:
    check("differ by" in line and "more than the target" in line, f"drift {drift} not said: {line!r}")

bad = run(args.bench, ["Timing.chain", "-prec", "2%:robustly"], timeout=60)
check(bad.returncode == 1 and "is not a precision" in bad.stdout + bad.stderr, f"bad -prec: {bad.stderr}")

# cmh-compare --metric robust: the robust estimate is the compared figure; its per-iteration
# values are the samples (forks on both sides here).
proc = run(args.compare, ["--metric", "robust", "--format", "json", base, new], timeout=60)
check(proc.returncode in (0, 1), f"cmh-compare --metric robust: exit {proc.returncode}: {proc.stderr}")
if proc.returncode in (0, 1):
    doc = json.loads(proc.stdout)
    metrics = doc["pairs"][0]["benchmarks"][0]["metrics"]
    first = metrics[0]
    check(first["label"] == "robust" and first["samples"] == "forks", f"--metric robust: {first}")
    check(math.isclose(first["base"]["score"], json.load(open(base))[0]["cmh"]["robustEstimate"]["score"], rel_tol=1e-9),
          f"--metric robust base score: {first}")
# A file without the estimate (an older cmh, or JMH): said, not guessed.
with open(base) as f:
    old = json.load(f)
del old[0]["cmh"]["robustEstimate"]
older = os.path.join(work, "older.json")
with open(older, "w") as f:
    json.dump(old, f)
proc = run(args.compare, ["--metric", "robust", older, new], timeout=60)
check("no robust estimate (cmh.robustEstimate) in the base run" in proc.stdout, f"missing estimate: {proc.stdout}")
proc = run(args.compare, ["--metric", "median", base, new], timeout=60)
check(proc.returncode == 2 and "--metric median: expected score or robust" in proc.stderr, f"bad --metric: {proc.stderr}")

done()

"""End-to-end: Google Benchmark's tools/compare.py reads cmh's -rf gbench files.

Two real runs of cmh-formats-bench (2 forks each, so compare.py's U test has two
repetitions per side), then compare.py on the two files; and the same on two
synthetic files from cmh-formats-driver whose scores differ by a known 10 %, so
the reported change can be checked exactly."""
import argparse
import json
import os
import tempfile

from cmhtest import QUICK, check, done, run

COMPARE = "/usr/share/benchmark/compare.py"
PYTHON = "/usr/bin/python3"  # Debian's, the one python3-scipy is installed for

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
parser.add_argument("--driver", required=True)
args = parser.parse_args()

work = tempfile.mkdtemp(prefix="cmh-formats-compare-")


def compare(a, b, label):
    """Runs compare.py on two files; returns (stdout, diff report entries by name)."""
    dump = os.path.join(work, label + ".diff.json")
    proc = run(PYTHON, [COMPARE, "--no-color", "-d", dump, "benchmarks", a, b], timeout=120, check_exit=0)
    check("Comparing " + a + " to " + b in proc.stdout, f"{label}: compare.py printed no comparison:\n{proc.stdout}")
    check("Traceback" not in proc.stderr, f"{label}: compare.py failed:\n{proc.stderr}")
    with open(dump) as f:
        entries = json.load(f)
    return proc.stdout, {e["name"]: e for e in entries}


# ---- Synthetic files: known values, a known 10 % slowdown ----
files = {}
for label, shift in (("base", "0"), ("slower", "0.1")):
    path = os.path.join(work, label + ".gbench.json")
    run(args.driver, ["gbench", path, "--shift", shift], check_exit=0)
    files[label] = path
out, diff = compare(files["base"], files["slower"], "synthetic")
avgt = 'Sample_02.params/kind:a b,"c";d/size:64/mode:avgt'
if check(avgt in diff, f"synthetic: {avgt} missing from compare.py's report: {sorted(diff)}"):
    m = diff[avgt]["measurements"][0]
    # cpu_time comes from the threads' CPU time, which the synthetic shift leaves alone.
    check(abs(m["time"] - 0.1) < 1e-9 and abs(m["cpu"]) < 1e-9, f"synthetic: avgt change {m}, expected +0.1, cpu 0")
    check(abs(m["real_time"] - 12.75) < 1e-9, f"synthetic: old time {m['real_time']}, expected 12.75 ns")
    check(avgt + "  " in out or avgt + " " in out, "synthetic: the avgt row is not printed")
thrpt = "Sample_01.hello/mode:thrpt"
if check(thrpt in diff, f"synthetic: {thrpt} missing"):
    e = diff[thrpt]
    check(len(e["measurements"]) == 2, f"synthetic: {thrpt} should compare 2 forks, got {len(e['measurements'])}")
    # Throughput 10 % higher means time per op 1/1.1 - 1 = -9.09 % lower.
    for m in e["measurements"]:
        check(abs(m["time"] - (1 / 1.1 - 1)) < 1e-9, f"synthetic: thrpt change {m['time']}, expected -0.0909")
    check(e["utest"] and e["utest"]["nr_of_repetitions"] == 2, f"synthetic: no U test for {thrpt}: {e['utest']}")
    check(thrpt + "_pvalue" in out, "synthetic: the U test row is not printed")
for aggregate in ("mean", "median", "stddev", "cv"):
    check(f"{thrpt}_{aggregate}" in diff, f"synthetic: aggregate {aggregate} missing")
check("Sample_03.sampled/mode:sample_mean" in diff, "synthetic: the sample-time benchmark is missing")

# ---- Real runs of a real benchmark ----
real = {}
for label in ("first", "second"):
    path = os.path.join(work, label + ".gbench.json")
    proc = run(args.bench, ["Formats.spin", "-f", "2", "-bm", "avgt", "-tu", "ns", "-rf", "gbench", "-rff", path]
               + QUICK, timeout=200, check_exit=0)
    check("Benchmark result is saved to " + path in proc.stdout, f"{label}: no 'saved to' line:\n{proc.stdout[-2000:]}")
    real[label] = path
with open(real["first"]) as f:
    first = json.load(f)
rows = [b for b in first["benchmarks"] if b["run_type"] == "iteration"]
check(len(rows) == 2, f"real: expected one iteration row per fork, got {len(rows)}")
check(all(b["time_unit"] == "ns" and b["real_time"] > 0 for b in rows), f"real: bad rows {rows}")
check(first["context"]["executable"] == os.path.realpath(args.bench) or
      first["context"]["executable"].endswith("cmh-formats-bench"), "real: context.executable")
out, diff = compare(real["first"], real["second"], "real")
spin = "Formats.spin/mode:avgt"
if check(spin in diff, f"real: {spin} missing from compare.py's report: {sorted(diff)}"):
    e = diff[spin]
    check(len(e["measurements"]) == 2, f"real: {spin} should compare 2 forks")
    check(all(m["real_time"] > 0 and m["real_time_other"] > 0 for m in e["measurements"]), f"real: {e}")
    check(bool(e["utest"]), f"real: compare.py ran no U test: {e}")
check("OVERALL_GEOMEAN" in out, f"real: no geometric mean row:\n{out}")

done()

"""The count-based twin of timing_cpu_compare.py: Timing.chain with steps = 1000 and 1200
under -prof icount. A/A (steps = 1000 in two runs): the counts are the same and
cmh-compare exits 0; the CPU regression (steps = 1000 against 1200 within one run, 20 %
more multiplies): icount.ir.norm grows by 20 % (+-2 %) and cmh-compare exits 1.

timing_cpu_compare.py judges cpu_time with Google Benchmark's compare.py and skips itself
where identical repetitions do not reproduce within 20 % (a loaded machine). Counts under
Callgrind do not depend on the load: this test never skips (unless valgrind is missing)."""
import argparse
import json
import os
import shutil
import tempfile

import cmhtest
from cmhtest import check, done, run

ap = argparse.ArgumentParser()
ap.add_argument("--bench", required=True)
ap.add_argument("--compare", required=True)
args = ap.parse_args()
if shutil.which("valgrind") is None:
    cmhtest.skip("valgrind is not installed")
work = tempfile.mkdtemp(prefix="cmh-cpu-compare-icount-")
SHORT = ["-f", "1", "-wi", "1", "-w", "10ms", "-i", "1", "-r", "10ms", "-bm", "avgt", "-tu", "ns",
         "-prof", "icount:calls=20"]


def record(label, points):
    path = os.path.join(work, label + ".json")
    run(args.bench, ["Timing.chain", "-rf", "json", "-rff", path] + points + SHORT, timeout=240, check_exit=0)
    return path


def compare(cmd, expect):
    proc = run(args.compare, ["--format", "json", "--threshold", "score=off"] + cmd, check_exit=expect)
    doc = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else {"pairs": []}
    return [b for p in doc["pairs"] for b in p["benchmarks"]]


def ir_of(benchmark):
    return next((m for m in benchmark["metrics"] if m["key"] == "icount.ir.norm"), {})


first, second = record("first", []), record("second", ["-p", "steps=1000"])

# A/A: steps = 1000 of one run against steps = 1000 of the other.
aa = compare([first, second, "--icount-threshold", "0%"], 0)
check(len(aa) == 1, f"A/A: expected the one common point compared, got {len(aa)}")
for b in aa:
    ir = ir_of(b)
    check(ir.get("verdict") == "same" and ir.get("difference") == 0, f"A/A {b['params']}: counts differ: {ir}")

# The CPU regression: steps 1200 against steps 1000, within one run.
reg = compare(["--baseline", "Timing.chain:steps=1000", first, "--icount-threshold", "5%"], 1)
check(len(reg) == 1, f"regression: expected one comparison, got {len(reg)}")
if reg:
    ir = ir_of(reg[0])
    print(f"steps 1000 -> 1200: icount.ir.norm {ir.get('base', {}).get('score')} -> "
          f"{ir.get('new', {}).get('score')}, ratio {ir.get('ratio')}")
    check(ir.get("verdict") == "worse" and ir.get("regression"), f"regression: not reported: {ir}")
    check(ir.get("ratio") is not None and abs(ir["ratio"] - 1.2) < 0.02, f"regression: ratio {ir.get('ratio')} not 1.2")

done()

"""-prof icount end to end, on cmh-icount-bench:
  - Icount.chain (a 64-step chain of single adds in a noinline function) counted twice,
    with different -i: icount.ir.norm is identical, and on x86-64/arm64 within
    64 + 24 (the chain, its call and return, the state's load and store, the extra check:
    what the empty loop's subtraction leaves), with the overhead stated (icount.overhead.norm
    and the note) and the model recorded in the JSON (Valgrind version, geometry, formula);
  - one instruction-heavy extra call (extra=1): cmh-compare reports it with exit 1 through
    the soft threshold and through a hard limit on the growth; the A/A pair exits 0 with
    the counts "same"; the HTML shows the counts right below the timed score;
  - Icount.avx512, an instruction Valgrind cannot run: the benchmark fails with Valgrind's
    reason, in one line;
  - without valgrind in PATH: one line saying so (under "Error parsing command line:"), exit 1.
Where valgrind is not installed the test checks that last line and exits 77 (skipped).
The native part of each run is tiny (-i 1..3 of 10 ms); the counted part is 20 calls."""
import argparse
import json
import os
import platform
import shutil
import sys
import tempfile

import cmhtest
from cmhtest import check, done, run

ap = argparse.ArgumentParser()
ap.add_argument("--bench", required=True)
ap.add_argument("--compare", required=True)
args = ap.parse_args()
work = tempfile.mkdtemp(prefix="cmh-icount-")
SHORT = ["-f", "1", "-wi", "1", "-w", "10ms", "-r", "10ms"]
PROF = ["-prof", "icount:calls=20"]

# Without valgrind in PATH: one line, exit 1, before anything runs.
proc = run(args.bench, ["Icount.chain"] + SHORT + ["-i", "1"] + PROF, env={"PATH": "/nonexistent"}, check_exit=1)
err = [line for line in proc.stderr.splitlines() if line.strip()]
# cmh's command-line errors: "Error parsing command line:" and one line saying what.
check(len(err) == 2 and err[0] == "Error parsing command line:" and "-prof icount" in err[1] and
      "valgrind not found in PATH" in err[1], f"no valgrind: not one clear line:\n{proc.stderr}")
if shutil.which("valgrind") is None:
    cmhtest.skip("valgrind is not installed: only the 'not found' line was checked")


def record(name, extra, iterations):
    path = os.path.join(work, name + ".json")
    proc = run(args.bench, ["Icount.chain", "-p", f"extra={extra}", "-i", str(iterations)] + SHORT + PROF +
               ["-rf", "json", "-rff", path], timeout=240, check_exit=0)
    with open(path) as f:
        return path, json.load(f)[0], proc.stdout


def metric(rec, label):
    return rec["secondaryMetrics"].get(label, {}).get("score")


first_path, first, first_out = record("first", 0, 3)
second_path, second, _ = record("second", 0, 1)
ir1, ir2 = metric(first, "icount.ir.norm"), metric(second, "icount.ir.norm")
print(f"icount.ir.norm: {ir1} and {ir2}; cycles {metric(first, 'icount.cycles.norm')}, "
      f"overhead {metric(first, 'icount.overhead.norm')} Ir/op")
check(ir1 is not None and ir1 == ir2, f"icount.ir.norm differs between identical runs: {ir1} vs {ir2}")
for label in ("icount.cycles.norm", "icount.l1miss.norm", "icount.llmiss.norm"):
    check(metric(first, label) is not None, f"{label} missing: {sorted(first['secondaryMetrics'])}")
check(metric(first, "icount.cycles.norm") is not None and ir1 is not None and metric(first, "icount.cycles.norm") >= ir1,
      "estimated cycles below the instruction count")
overhead = metric(first, "icount.overhead.norm")
check(overhead is not None and overhead > 0, f"the subtracted overhead is not stated: {overhead}")
if platform.machine() in ("x86_64", "aarch64") and ir1 is not None:
    check(64 <= ir1 <= 64 + 24, f"icount.ir.norm {ir1} outside [64, 88] for a 64-add chain")
note = first.get("cmh", {}).get("notes", {}).get("icount.ir.norm", "")
print(f"note: {note}")
check("Valgrind 3." in note and "I1 32768,8,64" in note and "LL 8388608,16,64" in note and
      "cycles = L1 hits + 5 LL hits + 35 RAM hits" in note, f"the model is not recorded in the JSON: {note!r}")
check("-i 3 ignored beyond 2" in note and "2 iterations" in note, f"the iteration cap is not stated: {note!r}")
check("overhead subtracted" in note, f"the overhead is not stated in the note: {note!r}")
check("icount.ir.norm" in first_out, "the text report does not show icount.ir.norm")

# One instruction-heavy call more: exit 1, soft and hard; A/A: exit 0.
heavy_path, heavy, _ = record("heavy", 1, 1)
ignore = ["--ignore-param", "extra", "--threshold", "score=off"]


def compare(files, extra, expect):
    proc = run(args.compare, ["--format", "json"] + files + ignore + extra, check_exit=expect)
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        cmhtest.fail(f"cmh-compare output is not JSON:\n{proc.stdout}\n{proc.stderr}")
        return {}
    for pair in doc["pairs"]:
        for b in pair["benchmarks"]:
            return {m["key"]: m for m in b["metrics"]}
    return {}


m = compare([first_path, second_path], ["--icount-threshold", "0%"], 0)
check(m.get("icount.ir.norm", {}).get("verdict") == "same" and m["icount.ir.norm"].get("difference") == 0,
      f"A/A: icount.ir.norm not the same: {m.get('icount.ir.norm')}")
m = compare([first_path, heavy_path], ["--icount-threshold", "5%"], 1)
ir = m.get("icount.ir.norm", {})
print(f"extra call: icount.ir.norm {ir.get('base', {}).get('score')} -> {ir.get('new', {}).get('score')}, "
      f"difference {ir.get('difference')}")
check(ir.get("verdict") == "worse" and ir.get("regression") and ir.get("samples") == "counted",
      f"extra call: icount.ir.norm not a regression: {ir}")
check((ir.get("difference") or 0) > 200, f"extra call: difference too small for heavy(): {ir.get('difference')}")
m = compare([first_path, heavy_path], ["--icount-threshold", "ir=off", "--icount-threshold", "cycles=off",
                                       "--icount-limit", "ir=+100"], 1)
check("grew by more than 100" in m.get("icount.ir.norm", {}).get("gate", ""), f"hard limit: {m.get('icount.ir.norm')}")
compare([first_path, heavy_path], ["--icount-threshold", "ir=off", "--icount-threshold", "cycles=off",
                                   "--icount-limit", "ir=100000"], 0)
proc = run(args.compare, [first_path, heavy_path, "--icount-limit", "ir"] + ignore, check_exit=2)
check("--icount-limit ir" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, f"bad limit: {proc.stderr}")

# The HTML: the counted rows right after the timed score.
html = os.path.join(work, "report.html")
run(args.compare, [first_path, heavy_path, "--icount-threshold", "5%", "--html", html] + ignore, check_exit=1)
with open(html) as f:
    page = f.read()
rows = [r for r in page.split("<tr class=\"metric")[1:]]
labels = [r.split("<td class=\"l\">", 1)[1].split("<", 1)[0] if "<td class=\"l\">" in r else "" for r in rows]
check(len(labels) > 2 and labels[0] == "score" and labels[1].startswith("icount."),
      f"HTML: the counts do not follow the score: {labels}")
check(" counted\"" in page and "regression (&gt; 5%)" in page, "HTML: the counted regression is not shown")

# An instruction Valgrind cannot run: failed, with Valgrind's reason.
if platform.machine() == "x86_64":
    proc = run(args.bench, ["Icount.avx512", "-i", "1"] + SHORT + PROF, timeout=240)
    text = proc.stdout + proc.stderr
    check(proc.returncode != 0, f"avx512: exit {proc.returncode}")
    check("Valgrind cannot run this benchmark" in text and
          ("Unrecognised instruction" in text or "unhandled instruction" in text),
          f"avx512: Valgrind's reason missing:\n{text[-3000:]}")

done()

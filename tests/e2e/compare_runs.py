"""cmh-compare on real runs of cmh-compare-bench: an A/A pair shows no change in the
exact metrics and no regression past the threshold; a run with 20 % more work per op
and one more allocation per op is reported as a regression in CPU time per op
(rusage.utime.norm) and in both allocation metrics, with exit 1; the text and Markdown
outputs show the same.

The slowdown is asserted on CPU time, not on the wall-clock score: this machine is
shared (load averages near 20 on 2 vCPUs while the suite runs), and waiting for a CPU
inflates wall time by tens of percent between runs, but not the CPU time an op uses.
The score is still compared and printed.

The 20 % slowdown can be told from noise only where identical runs reproduce within
20 %: here the ten identical forks' CPU time per op spans 3-8 %, in an emulated (TCG)
guest about 47 %. Where they span 20 % or more, the CPU-time checks are not made, every
other check still is, and the test exits 77 (skipped) with the reason when nothing failed."""
import os
import sys
import tempfile

from cmhtest import run, check
from compare_common import parse_args, compare_json, fork_means, metrics_of, spread
import cmhtest

args = parse_args()
tmp = tempfile.mkdtemp(prefix="cmh-compare-runs-")
# Short real runs: 5 forks so the forks are the samples, -prof alloc for the exact metrics.
RUN = ["Compare.work", "-f", "5", "-wi", "1", "-i", "2", "-w", "50ms", "-r", "100ms", "-prof", "rusage",
       "-prof", "alloc"]


def bench_run(name, extra, allocs):
    path = os.path.join(tmp, name + ".json")
    run(args.bench, RUN + ["-p", f"extra={extra}", "-p", f"allocs={allocs}", "-rf", "json,gbench",
                           "-rff", path], timeout=120, check_exit=0)
    return path


base = bench_run("base", 0, 1)
again = bench_run("again", 0, 1)
slower = bench_run("slower", 20, 2)
ignore = ["--ignore-param", "extra", "--ignore-param", "allocs"]
# Do identical forks reproduce their CPU time within the 20 % this test must detect?
same = fork_means(base, "rusage.utime.norm") + fork_means(again, "rusage.utime.norm")
noise = spread(same)
print(f"identical forks' rusage.utime.norm: {len(same)} forks, spread {noise:.1%}")
TIMED = noise < 0.20
skip_reason = None if TIMED else (f"identical forks' CPU time per op spans {noise:.0%} (>= the 20 % to detect): "
                                  "the CPU-time regression checks were not made")

# A/A: same work, same allocations. The exact metrics must be identical; the score may
# differ by noise (the machine is shared), so the gate is generous and only checked as a gate.
doc = compare_json(args.compare, [base, again, "--threshold", "25%"] + ignore, 0)
m = metrics_of(doc, "Compare.work")
check("score" in m, f"A/A: no score compared: {doc}")
check(m.get("alloc.rate.norm", {}).get("verdict") == "same", f"A/A: alloc.rate.norm not 'same': {m.get('alloc.rate.norm')}")
check(m.get("alloc.count.norm", {}).get("verdict") == "same", f"A/A: alloc.count.norm not 'same': {m.get('alloc.count.norm')}")
if "score" in m:
    s = m["score"]
    check(s["samples"] == "forks" and s["base"]["n"] == 5 and s["new"]["n"] == 5, f"A/A: samples are not the 5 forks: {s}")
    check(s["welch"] is not None and s["mannWhitney"] is not None, f"A/A: a test is missing: {s}")
    if TIMED:  # a 25 % gate on wall time means nothing where identical forks span more
        check(not s["regression"], f"A/A: the score is a regression past 25%: {s}")
    print(f"A/A score: ratio {s['ratio']:.3f} interval {s['ratioInterval']} verdict {s['verdict']} "
          f"Welch p {s['welch']['p']:.3g} U p {s['mannWhitney']['p']:.3g} ({s['mannWhitney']['method']})")

# 20 % more work and one more allocation: exit 1, CPU time and both allocation metrics.
doc = compare_json(args.compare, [base, slower, "--threshold", "5%", "--threshold", "rusage.utime.norm=5%"] + ignore, 1)
m = metrics_of(doc, "Compare.work")
s = m.get("score", {})
check(s.get("welch") is not None, f"slowdown: the score was not tested: {s}")
if s.get("welch"):
    print(f"slowdown score (wall time): ratio {s['ratio']:.3f} interval {s['ratioInterval']} "
          f"Welch p {s['welch']['p']:.3g} verdict {s['verdict']}")
u = m.get("rusage.utime.norm", {})
if TIMED:
    check(u.get("verdict") == "worse" and u.get("regression"), f"slowdown: CPU time per op not a regression: {u}")
if TIMED and u.get("ratio"):
    check(1.08 < u["ratio"] < 1.4, f"slowdown: CPU-time ratio {u['ratio']} is far from 1.2")
    print(f"slowdown CPU time: ratio {u['ratio']:.3f} interval {u['ratioInterval']} Welch p {u['welch']['p']:.3g}")
a = m.get("alloc.count.norm", {})
check(a.get("verdict") == "worse" and a.get("regression") and abs(a.get("ratio", 0) - 2.0) < 1e-9,
      f"extra allocation: alloc.count.norm not 1 -> 2 and a regression: {a}")
b = m.get("alloc.rate.norm", {})
check(b.get("verdict") == "worse" and b.get("regression"), f"extra allocation: alloc.rate.norm not a regression: {b}")

# The allocation alone fails the run even when the score's gate is lifted.
doc = compare_json(args.compare, [base, slower, "--threshold", "score=off"] + ignore, 1)
check(not metrics_of(doc, "Compare.work")["score"]["regression"], "score=off still gates the score")
# ... and nothing fails with every gate lifted.
compare_json(args.compare, [base, slower, "--threshold", "score=off", "--threshold", "alloc.rate.norm=off",
                            "--threshold", "alloc.count.norm=off"] + ignore, 0)

# Without --ignore-param the points differ, so nothing matches: bad input, exit 2.
proc = run(args.compare, [base, slower], check_exit=2)
check("no benchmark matches" in proc.stderr, f"unmatched files: {proc.stderr!r}")

# Text and Markdown carry the verdicts; the gbench files of the same runs compare too.
proc = run(args.compare, [base, slower, "--threshold", "5%"] + ignore, check_exit=1)
check("REGRESSION" in proc.stdout and "alloc.count.norm" in proc.stdout and "Welch p" in proc.stdout,
      f"text output:\n{proc.stdout}")
proc = run(args.compare, ["--format", "markdown", base, slower] + ignore, check_exit=1)
check(proc.stdout.startswith("### ") and "| --- |" in proc.stdout and "**worse" in proc.stdout,
      f"markdown output:\n{proc.stdout}")
gb = lambda p: p[:-len(".json")] + ".gbench.json"
doc = compare_json(args.compare, [gb(base), gb(slower), "--threshold", "5%"] + ignore, 1)
m = metrics_of(doc, "Compare.work")
check(m.get("score", {}).get("samples") == "repetitions", f"gbench: forks are not the repetitions: {m.get('score')}")
check(m.get("alloc.count.norm", {}).get("regression"), f"gbench: allocation not reported: {m.get('alloc.count.norm')}")

# Within one run: Compare.work against Compare.half, a known 2x, judged in CPU time per op
# (on wall time, 3 iterations of a loaded machine missed it: p = 0.088 at load 8).
one = os.path.join(tmp, "one.json")
run(args.bench, ["Compare", "-f", "1", "-wi", "1", "-i", "3", "-w", "50ms", "-r", "100ms", "-prof", "rusage",
                 "-rf", "json", "-rff", one], timeout=120, check_exit=0)
# Where identical forks do not reproduce within 20 % (TIMED false; in the TCG guest they
# spanned 589 %), a 2x over 3 iterations is not a verdict to expect either.
doc = compare_json(args.compare, ["--baseline", "Compare.half", one, "--ignore-param", "extra",
                                  "--ignore-param", "allocs", "--threshold", "score=off",
                                  "--threshold", "rusage.utime.norm=5%"], 1 if TIMED else None)
m = metrics_of(doc, "Compare.work")
check("score" in m, f"--baseline: the score was not compared: {m.get('score')}")
u = m.get("rusage.utime.norm", {})
if TIMED:
    check(u.get("samples") == "iterations" and u.get("verdict") == "worse" and u.get("regression"),
          f"--baseline: CPU time per op of the 2x not worse: {u}")

if cmhtest._failures:
    sys.exit(1)
if skip_reason:
    cmhtest.skip(skip_reason)
sys.exit(0)

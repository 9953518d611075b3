"""cmh-compare on files it did not write: Java JMH JSON fixtures that follow JMH's
documented layout (jmh.md 4.1), with 1.36's middle-dot spelling (·gc.alloc.rate.norm)
on one side and 1.37's gc.alloc.rate.norm on the other; a JMH 1.21 sample-mode file
(rawDataHistogram); Google Benchmark's own JSON with repetitions and with aggregates
only; and bad files: missing, empty, truncated, wrong format, a directory, each exit 2
with one line naming the file."""
import json
import os
import sys
import tempfile

from cmhtest import run, check
from compare_common import parse_args, compare_json, metrics_of
import cmhtest

args = parse_args()
fx = lambda name: os.path.join(args.fixtures, name)
tmp = tempfile.mkdtemp(prefix="cmh-compare-files-")

# JMH 1.36 (·gc.*) against 1.37 (gc.*): inline is 20 % slower and allocates 104 -> 136 B/op.
doc = compare_json(args.compare, [fx("jmh-1.36-middot.json"), fx("jmh-1.37-gc.json"), "--threshold", "5%"], 1)
pair = doc["pairs"][0]
check(pair["base"]["format"] == "jmh json" and pair["new"]["format"] == "jmh json", f"formats: {pair['base']}, {pair['new']}")
inline = metrics_of(doc, "TabBench.inline")
check(set(inline) >= {"score", "alloc.rate.norm", "alloc.rate", "gc.count", "gc.time"},
      f"inline: the ·gc. and gc. spellings were not matched: {sorted(inline)}")
check(inline.get("score", {}).get("verdict") == "worse" and inline["score"]["regression"], f"inline score: {inline.get('score')}")
check(inline.get("score", {}).get("samples") == "forks", "inline: the two forks are not the samples")
norm = inline.get("alloc.rate.norm", {})
check(norm.get("label") == "gc.alloc.rate.norm" and norm.get("verdict") == "worse" and norm.get("regression")
      and norm.get("welch") is None, f"inline alloc.rate.norm (exact, no test): {norm}")
sep = metrics_of(doc, "TabBench.separate")
check(sep.get("score", {}).get("verdict") == "no change", f"separate (thrpt) score: {sep.get('score')}")
check(sep.get("score", {}).get("higherIsBetter") is True, "thrpt score is not higher-is-better")
check(sep.get("alloc.rate.norm", {}).get("verdict") == "same", f"separate alloc.rate.norm: {sep.get('alloc.rate.norm')}")
# The reverse direction: faster and fewer bytes is no regression.
doc = compare_json(args.compare, [fx("jmh-1.37-gc.json"), fx("jmh-1.36-middot.json"), "--threshold", "5%"], 0)
check(metrics_of(doc, "TabBench.inline")["score"]["verdict"] == "better", "reverse: inline is not 'better'")
# Text output names the middle-dot-free label and both p-values.
proc = run(args.compare, [fx("jmh-1.36-middot.json"), fx("jmh-1.37-gc.json")], check_exit=1)
check("gc.alloc.rate.norm" in proc.stdout and "(exact)" in proc.stdout, f"text output:\n{proc.stdout}")

# JMH 1.21 sample mode: the iterations' histogram means are the samples.
doc = compare_json(args.compare, [fx("jmh-1.21-sample-base.json"), fx("jmh-1.21-sample-new.json")], 0)
s = metrics_of(doc, "TabBench.sampled").get("score", {})
check(s.get("samples") == "iterations" and s.get("base", {}).get("n") == 3 and s.get("verdict") == "no change",
      f"sample mode: {s}")

# Google Benchmark's own JSON: repetitions (U test possible) and aggregates only (Welch only).
def gbench_doc(times, allocs, aggregates_only=False):
    rows = []
    for i, t in enumerate(times):
        rows.append({"name": "BM_Insert/1024", "family_index": 0, "per_family_instance_index": 0,
                     "run_name": "BM_Insert/1024", "run_type": "iteration", "repetitions": len(times),
                     "repetition_index": i, "threads": 1, "iterations": 1000, "real_time": t,
                     "cpu_time": t * 0.98, "time_unit": "ns", "allocs_per_iter": allocs, "max_bytes_used": 4096})
    mean = sum(times) / len(times)
    sd = (sum((t - mean) ** 2 for t in times) / (len(times) - 1)) ** 0.5
    for which, v in (("mean", mean), ("stddev", sd)):
        rows.append({"name": "BM_Insert/1024_" + which, "family_index": 0, "per_family_instance_index": 0,
                     "run_name": "BM_Insert/1024", "run_type": "aggregate", "repetitions": len(times), "threads": 1,
                     "aggregate_name": which, "aggregate_unit": "time", "iterations": len(times), "real_time": v,
                     "cpu_time": v * 0.98, "time_unit": "ns", "allocs_per_iter": allocs if which == "mean" else 0})
    if aggregates_only:
        rows = [r for r in rows if r["run_type"] == "aggregate"]
    return {"context": {"date": "2026-01-01T00:00:00+00:00", "host_name": "h", "executable": "./bm", "num_cpus": 2,
                        "mhz_per_cpu": 2800, "cpu_scaling_enabled": False, "caches": [], "load_avg": [],
                        "library_version": "v1.8.3", "library_build_type": "release", "json_schema_version": 1},
            "benchmarks": rows}


def write(name, content):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content if isinstance(content, str) else json.dumps(content, indent=2))
    return path


g1 = write("g1.json", gbench_doc([1000, 1010, 995, 1005, 1002, 998, 1003, 1001, 999], 1.0))
g2 = write("g2.json", gbench_doc([1200, 1212, 1195, 1206, 1202, 1198, 1204, 1201, 1199], 1.0))
doc = compare_json(args.compare, [g1, g2, "--threshold", "5%"], 1)
check(doc["pairs"][0]["new"]["format"] == "gbench json", f"gbench format: {doc['pairs'][0]['new']}")
m = metrics_of(doc, "BM_Insert")
check(m.get("score", {}).get("samples") == "repetitions" and m["score"]["base"]["n"] == 9, f"gbench score: {m.get('score')}")
check(m.get("score", {}).get("mannWhitney", {}).get("method") == "exact", f"gbench: U not exact for 9 v 9: {m.get('score')}")
check(m.get("cpu_time", {}).get("verdict") == "worse", f"gbench cpu_time: {m.get('cpu_time')}")
check(m.get("alloc.count.norm", {}).get("verdict") == "same", f"gbench allocs_per_iter: {m.get('alloc.count.norm')}")
a1 = write("a1.json", gbench_doc([1000, 1010, 995, 1005], 1.0, aggregates_only=True))
a2 = write("a2.json", gbench_doc([1000, 1008, 997, 1004], 1.0, aggregates_only=True))
doc = compare_json(args.compare, [a1, a2], 0)
s = metrics_of(doc, "BM_Insert").get("score", {})
check(s.get("samples") == "summary" and s.get("mannWhitney") is None and s.get("welch") is not None
      and s.get("base", {}).get("n") == 4, f"gbench aggregates only: {s}")

# Bad input: exit 2, one line on stderr naming the file and the problem.
full = open(fx("jmh-1.37-gc.json"), encoding="utf-8").read()
bad = {
    "missing": (os.path.join(tmp, "nope.json"), "cannot open"),
    "empty": (write("empty.json", ""), "empty"),
    "truncated": (write("truncated.json", full[: len(full) // 2]), "truncated"),
    "wrong format": (write("csv.json", '"Benchmark","Mode"\r\n'), "not valid JSON"),
    "wrong shape": (write("other.json", {"name": "x"}), "not a result file"),
    "no records": (write("none.json", "[]"), "holds no benchmarks"),
    "directory": (tmp, "is a directory"),
}
for what, (path, needle) in bad.items():
    proc = run(args.compare, [fx("jmh-1.36-middot.json"), path], check_exit=2)
    lines = proc.stderr.strip().splitlines()
    check(len(lines) == 1 and needle in lines[0] and path in lines[0] and proc.stdout == "",
          f"{what}: expected one line with {needle!r} and the path, got {proc.stderr!r}")
for argv, needle in ((["--threshold", "five", "a", "b"], "--threshold five"), (["only-one.json"], "two or more"),
                     (["--bogus", "a", "b"], "--bogus")):
    proc = run(args.compare, argv, check_exit=2)
    check(len(proc.stderr.strip().splitlines()) == 1 and needle in proc.stderr, f"{argv}: {proc.stderr!r}")
proc = run(args.compare, ["--help"], check_exit=0)
check("Exit status" in proc.stdout, "--help")

sys.exit(1 if cmhtest._failures else 0)

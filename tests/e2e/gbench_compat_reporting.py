"""What tests/gbench_compat/reporting.cpp reports, in Google Benchmark's JSON, is what
the Google Benchmark build reports with the same flags: SetLabel's text as the string
"label" (aggregates too), the counters with each flag under their names, the
repetitions and aggregates of each family (ReportAggregatesOnly keeps aggregates
only in the file, DisplayAggregatesOnly only on the display), each row's time_unit
under --benchmark_time_unit, and the context entries of --benchmark_context and
AddCustomContext. cmh's own JSON carries the label as cmh.label, a string, never a
metric; its report shows it. compare.py reads both files."""
import json
import os
import re
import subprocess
import tempfile

import cmhtest as t
from gbench_common import programs

cmh, google = programs()["reporting"]
tmp = tempfile.mkdtemp()
# --benchmark_repetitions=1: cmh's default is 3 forks; the families' Repetitions(3) still win.
FLAGS = ["--benchmark_time_unit=us", "--benchmark_context=ci=yes", "--benchmark_repetitions=1"]
files = {}
procs = {}
for build, exe, extra in [("cmh", cmh, ["-wi", "0", "-i", "1", "-r", "10ms"]),
                          ("google", google, ["--benchmark_min_time=0.01"])]:
    files[build] = os.path.join(tmp, build + ".json")
    procs[build] = t.run(exe, FLAGS + ["--benchmark_out=" + files[build]] + extra, timeout=t.guard(250), check_exit=0)
docs = {}
for build, path in files.items():
    with open(path) as f:
        docs[build] = json.load(f)


def by_name(doc):
    out = {}
    for r in doc["benchmarks"]:
        out.setdefault(r["name"], []).append(r)
    return out


ours, theirs = by_name(docs["cmh"]), by_name(docs["google"])
t.check(sorted(ours) == sorted(theirs), f"the rows differ:\n cmh:    {sorted(ours)}\n google: {sorted(theirs)}")

# Labels: strings, equal; on the aggregates too where the repetitions agree.
for name in ["BM_labelled/64"]:
    a, b = ours.get(name, [{}])[0], theirs.get(name, [{}])[0]
    t.check(a.get("label") == b.get("label") == 'fast "path", n=64', f"{name}: label {a.get('label')!r} vs {b.get('label')!r}")
    counters = {"plain", "rate", "per_pass", "invariant", "inverted"}
    t.check(counters <= set(a) and counters <= set(b), f"{name}: counters cmh {sorted(set(a) & counters)}, "
                                                       f"google {sorted(set(b) & counters)}")
    t.check(a.get("plain") == b.get("plain") == 7, f"{name}: plain counter {a.get('plain')} vs {b.get('plain')}")
    t.check(a.get("inverted") == b.get("inverted") == 0.25, f"{name}: kInvert {a.get('inverted')} vs {b.get('inverted')}")

# Repetitions and aggregates, family by family (the file: ReportAggregatesOnly shapes it).
def shape(rows):
    return sorted((r["run_type"], r.get("aggregate_name", ""), r.get("repetitions")) for r in rows)


for name in ["BM_repeated", "BM_repeated_aggregates", "BM_repeated_display"]:
    t.check(shape(ours.get(name, [])) == shape(theirs.get(name, [])),
            f"{name}: cmh {shape(ours.get(name, []))}\n google {shape(theirs.get(name, []))}")
t.check(not any(r["run_type"] == "iteration" for r in ours.get("BM_repeated_aggregates", [])),
        "ReportAggregatesOnly left repetitions in the file")

# --benchmark_time_unit sets the unit of benchmarks without Unit(); Unit() wins.
for name, unit in [("BM_unit", "us"), ("BM_unit_ms", "ms")]:
    units = {r["time_unit"] for r in ours.get(name, []) + theirs.get(name, [])}
    t.check(units == {unit}, f"{name}: time units {units}, expected {unit}")

# Context entries, as strings.
for build, doc in docs.items():
    c = doc["context"]
    t.check(c.get("ci") == "yes" and c.get("suite") == "reporting", f"{build}: context {c}")

# cmh's JSON: the label is text in the cmh block, never a metric; the report shows it.
path = os.path.join(tmp, "jmh.json")
proc = t.run(cmh, ["BM_labelled", "-wi", "0", "-i", "1", "-r", "10ms", "-f", "1", "-rf", "json", "-rff", path],
             timeout=t.guard(120), check_exit=0)
with open(path) as f:
    record = json.load(f)[0]
t.check(record["cmh"].get("label") == 'fast "path", n=64', f"cmh.label is {record['cmh'].get('label')!r}")
t.check(not any("label" in k for k in record["secondaryMetrics"]), f"a label metric: {sorted(record['secondaryMetrics'])}")
t.check('label: fast "path", n=64' in proc.stdout, "the report does not show the label\n" + proc.stdout[-2000:])
t.check(record["cmh"].get("context", {}).get("suite") == "reporting", f"cmh.context: {record['cmh'].get('context')}")

# compare.py reads both files and pairs the rows.
compare = "/usr/share/benchmark/compare.py"
if t.check(os.path.exists(compare), "compare.py (libbenchmark-tools) is missing"):
    cp = subprocess.run(["/usr/bin/python3", compare, "benchmarks", files["google"], files["cmh"]],
                        capture_output=True, text=True, timeout=t.guard(120))
    plain = re.sub(r"\x1b\[[0-9;]*m", "", cp.stdout)
    paired = [line for line in plain.splitlines() if line.startswith(("BM_labelled/64 ", "BM_unit "))]
    t.check(cp.returncode == 0 and len(paired) >= 2, f"compare.py: exit {cp.returncode}\n{cp.stdout}\n{cp.stderr}")

t.done()

"""The tests/gbench_compat programs run under cmh (forks, short iterations):
every benchmark gets a score; counters are secondary results with the same
names as Google Benchmark's and the right units (rates per second); the label
is shown; threads, manual time and fixed iterations work; skips and errors are
failed benchmarks with their message."""
import json
import os
import re
import tempfile

import cmhtest as t
from gbench_common import QUICK, programs

progs = programs()
tmp = tempfile.mkdtemp()


def google_counters(exe, flt):
    """{benchmark: {counter: is_rate}} from Google Benchmark's console (rates print '/s')."""
    proc = t.run(exe, ["--benchmark_filter=" + flt, "--benchmark_min_time=0.001",
                       "--benchmark_counters_tabular=false", "--benchmark_color=false"], check_exit=0)
    out = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^(\S+)\s+[\d.]+ \S+\s+[\d.]+ \S+\s+\d+(.*)$", line)
        if not m:
            continue
        out[m.group(1)] = {c: v.endswith("/s") for c, v in re.findall(r"(\w+)=(\S+)", m.group(2))}
    return out


def cmh_records(exe, args, status=0):
    path = os.path.join(tmp, "r.json")
    proc = t.run(exe, args + QUICK + ["-rf", "json", "-rff", path], timeout=400, check_exit=status)
    with open(path) as f:
        return proc, {r["benchmark"]: r for r in json.load(f)}


# registration: everything, compared with Google Benchmark's counters.
cmh, google = progs["registration"]
proc, records = cmh_records(cmh, [])
listed = [line for line in t.run(cmh, ["--benchmark_list_tests"]).stdout.splitlines() if line]
t.check(sorted(records) == sorted(listed), f"not every benchmark has a record: {sorted(set(listed) - set(records))}")
for name, r in records.items():
    score = r["primaryMetric"]["score"]
    t.check(isinstance(score, float) and score > 0, f"{name}: no positive score ({score})")
theirs = google_counters(google, "BM_pairs|BM_memcpy|BM_accumulate/16$")
t.check(len(theirs) >= 4, f"Google Benchmark's counters were not read: {theirs}")
for name, counters in theirs.items():
    if name not in records:
        t.fail(f"{name}: not run under cmh")
        continue
    ours = {k: v for k, v in records[name]["secondaryMetrics"].items() if k not in ("label", "complexity.n")}
    t.check(set(ours) == set(counters), f"{name}: counters {sorted(ours)}, Google Benchmark's {sorted(counters)}")
    for c, is_rate in counters.items():
        if c in ours:
            unit = ours[c]["scoreUnit"]
            t.check(unit.endswith("/s") == is_rate, f"{name}: counter {c} has unit {unit}; rate in gbench: {is_rate}")
pairs = records.get("BM_pairs/a:3/b:4", {}).get("secondaryMetrics", {})
if t.check("product" in pairs, "BM_pairs/a:3/b:4 has no product counter"):
    t.check(pairs["product"]["score"] == 12.0, f"product counter is {pairs['product']['score']}, expected 12")
    t.check(pairs["per_iter"]["score"] == 3.0, f"kAvgIterations counter is {pairs['per_iter']['score']}, expected 3")
    t.check(pairs["items_per_second"]["scoreUnit"] if "items_per_second" in pairs else True, "")
acc = records.get("BM_accumulate/16", {}).get("secondaryMetrics", {})
t.check(acc.get("items_per_second", {}).get("scoreUnit") == "items/s", f"items_per_second unit: {acc}")
t.check(acc.get("bytes_per_second", {}).get("scoreUnit") == "bytes/s", f"bytes_per_second unit: {acc}")
t.check("complexity.n" in acc and acc["complexity.n"]["score"] == 16.0, f"SetComplexityN not recorded: {acc}")
t.check("Complexity() is recorded" in proc.stderr, "no note that the Big-O fit is not computed\n" + proc.stderr[-2000:])
t.check("label: copy 4096 bytes" in proc.stdout, "SetLabel's text is not shown\n" + proc.stdout[-3000:])
t.check(records["BM_memcpy/4096"]["cmh"].get("label") == "copy 4096 bytes" and
        "label" not in records["BM_memcpy/4096"]["secondaryMetrics"], "the label is not cmh.label, or is a metric")
t.check(records["BM_options/iterations:1000"]["mode"] == "ss", "Iterations(n) does not run as a fixed batch")
t.check(records["BM_memcpy/64"]["primaryMetric"]["scoreUnit"] == "us/op", "Unit(kMicrosecond) not applied")
t.check(len(records["BM_options/repeats:2/process_time"]["primaryMetric"]["rawData"]) == 1,
        "the command line's -f should win over Repetitions()")

# fixtures: threads, manual time, pause/resume, fixtures, lambdas; the two skips fail.
cmh, google = progs["fixtures"]
proc, records = cmh_records(cmh, ["-e", "skip"])
for name, r in records.items():
    t.check(r["primaryMetric"]["score"] > 0, f"{name}: no positive score")
t.check(records["BM_threads/threads:2"]["threads"] == 2, "Threads(2) does not run 2 threads")
seen = records["BM_threads/threads:2"]["secondaryMetrics"]["threads_seen"]["score"]
t.check(seen == 2.0, f"kAvgThreads counter over 2 threads is {seen}, expected 2")
t.check("lambda_loop/8" in records and "MapFixture/Iterate/2" in records, f"missing benchmarks: {sorted(records)}")
proc = t.run(cmh, ["skip"] + QUICK, timeout=200, check_exit=2)
rows = {r["Benchmark"]: r for r in t.summary_rows(proc.stdout)}
for name, message in [("BM_skip_error", "the input could not be prepared"),
                      ("BM_skip_before_loop", "nothing to measure here")]:
    t.check(rows.get(name, {}).get("Score") == "FAILED", f"{name} is not FAILED\n{proc.stdout[-3000:]}")
    t.check(message in proc.stdout, f"{name}: its message is not shown\n{proc.stdout[-3000:]}")

t.done()

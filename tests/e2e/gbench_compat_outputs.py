"""Google Benchmark's two outputs under cmh, as CI scripts combine them: the display
(--benchmark_format) and the file (--benchmark_out in --benchmark_out_format), alone
or together, as in Google Benchmark, which the same flags on the Google Benchmark
build show: the same rows (names, run types, aggregate names) in both builds, with
--benchmark_report_aggregates_only and --benchmark_display_aggregates_only; cmh's
report on stderr when stdout carries JSON; compare.py reads and pairs both files."""
import json
import os
import re
import subprocess
import tempfile

import cmhtest as t
from gbench_common import programs

cmh, google = programs()["registration"]
tmp = tempfile.mkdtemp()
CMH_QUICK = ["-wi", "0", "-i", "1", "-r", "10ms"]
GOOGLE_QUICK = ["--benchmark_min_time=0.01"]
FILTER = "--benchmark_filter=BM_memcpy/64"


def run_both(flags, name):
    """Runs both builds with `flags` (+ --benchmark_out=<dir>/<build>.<name> when name);
    returns {build: (process, out_path)}."""
    result = {}
    for build, exe, extra in [("cmh", cmh, CMH_QUICK), ("google", google, GOOGLE_QUICK)]:
        args = [FILTER] + flags + extra
        out = None
        if name:
            out = os.path.join(tmp, build + "." + name)
            args.append("--benchmark_out=" + out)
        result[build] = (t.run(exe, args, timeout=t.guard(200), check_exit=0), out)
    return result


def rows(doc):
    return sorted((r["name"], r["run_type"], r.get("aggregate_name", "")) for r in doc["benchmarks"])


def load(path):
    with open(path) as f:
        return json.load(f)


# --benchmark_format=json with --benchmark_out: JSON on stdout and in the file; cmh's report on stderr.
both = run_both(["--benchmark_format=json", "--benchmark_repetitions=2"], "json")
for build, (proc, out) in both.items():
    try:
        shown, saved = json.loads(proc.stdout), load(out)
        t.check(rows(shown) == rows(saved), f"{build}: stdout and --benchmark_out differ")
    except ValueError as e:
        t.fail(f"{build}: --benchmark_format=json with --benchmark_out: stdout is not JSON ({e})\n{proc.stdout[:500]}")
t.check(rows(load(both["cmh"][1])) == rows(load(both["google"][1])),
        f"the rows differ:\n cmh:    {rows(load(both['cmh'][1]))}\n google: {rows(load(both['google'][1]))}")
t.check('Result "BM_memcpy/64"' in both["cmh"][0].stderr, "cmh's report is not on stderr")

# The file in another format: console (cmh's report) or CSV, while stdout stays JSON.
for out_format, marker in [("console", "Benchmark"), ("csv", "Benchmark")]:
    proc = t.run(cmh, [FILTER, "--benchmark_format=json", "--benchmark_out_format=" + out_format,
                       "--benchmark_out=" + os.path.join(tmp, "other." + out_format), "-f", "1"] + CMH_QUICK,
                 timeout=t.guard(120), check_exit=0)
    try:
        t.check(rows(json.loads(proc.stdout)) == [("BM_memcpy/64", "iteration", "")] * 1,
                f"{out_format}: stdout JSON rows {rows(json.loads(proc.stdout))}")
    except ValueError:
        t.fail(f"--benchmark_out_format={out_format}: stdout is not JSON\n{proc.stdout[:500]}")
    with open(os.path.join(tmp, "other." + out_format)) as f:
        text = f.read()
    t.check(marker in text and not text.lstrip().startswith("{"), f"--benchmark_out_format={out_format}: {text[:300]}")

# Aggregates only: in the file (report_) and on stdout (display_), as Google Benchmark leaves rows out.
both = run_both(["--benchmark_format=json", "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"],
                "report")
for build, (proc, out) in both.items():
    for what, doc in [("file", load(out)), ("stdout", json.loads(proc.stdout))]:
        kinds = {r["run_type"] for r in doc["benchmarks"]}
        t.check(kinds == {"aggregate"}, f"{build} {what}: report_aggregates_only left {kinds}")
t.check(rows(load(both["cmh"][1])) == rows(load(both["google"][1])),
        f"aggregates differ:\n cmh:    {rows(load(both['cmh'][1]))}\n google: {rows(load(both['google'][1]))}")
both = run_both(["--benchmark_format=json", "--benchmark_repetitions=3", "--benchmark_display_aggregates_only"],
                "display")
for build, (proc, out) in both.items():
    t.check({r["run_type"] for r in json.loads(proc.stdout)["benchmarks"]} == {"aggregate"},
            f"{build}: display_aggregates_only left repetitions on stdout")
    t.check(sum(r["run_type"] == "iteration" for r in load(out)["benchmarks"]) == 3,
            f"{build}: display_aggregates_only changed the file")

# compare.py reads the cmh file and pairs it with the Google Benchmark one.
compare = "/usr/share/benchmark/compare.py"
if t.check(os.path.exists(compare), "compare.py (libbenchmark-tools) is missing"):
    cp = subprocess.run(["/usr/bin/python3", compare, "benchmarks", both["google"][1], both["cmh"][1]],
                        capture_output=True, text=True, timeout=t.guard(120))
    plain = re.sub(r"\x1b\[[0-9;]*m", "", cp.stdout)  # compare.py colours its table
    t.check(cp.returncode == 0 and any(line.startswith("BM_memcpy/64 ") for line in plain.splitlines()),
            f"compare.py does not pair the files: exit {cp.returncode}\n{cp.stdout}\n{cp.stderr}")

t.done()

"""Google Benchmark's flags keep working under cmh: each is translated (-v EXTRA
says to what), --benchmark_out writes Google Benchmark's JSON with Google
Benchmark's names, which compare.py reads and pairs with the same suite's Google
Benchmark file, --benchmark_format=json puts it on stdout, and a flag with no cmh
equivalent, or an unknown one, is one clear error line and exit 1. cmh's own
flags (-p) work on a Google Benchmark suite."""
import json
import os
import re
import subprocess
import tempfile

import cmhtest as t
from gbench_common import programs

cmh, google = programs()["registration"]
tmp = tempfile.mkdtemp()
quick = ["-wi", "1", "-i", "2", "-w", "20ms"]

# --benchmark_filter / _out / _out_format / _min_time / _repetitions, and -v EXTRA.
out = os.path.join(tmp, "r.json")
proc = t.run(cmh, ["--benchmark_filter=BM_memcpy", "--benchmark_out=" + out, "--benchmark_out_format=json",
                   "--benchmark_min_time=0.02", "--benchmark_repetitions=2", "-v", "EXTRA"] + quick,
             timeout=t.guard(200), check_exit=0)
for line in ["# gbench flag: --benchmark_filter=BM_memcpy  ->  BM_memcpy",
             "# gbench flag: --benchmark_min_time=0.02  ->  -r 20ms",
             "# gbench flag: --benchmark_repetitions=2  ->  -f 2",
             "# gbench flag: --benchmark_out_format=json  ->  -rf gbench"]:
    t.check(line in proc.stdout, f"-v EXTRA does not print '{line}'\n{proc.stdout[:2000]}")
t.check("# Fork: 2 of 2" in proc.stdout, "--benchmark_repetitions=2 did not give two forks")
with open(out) as f:
    doc = json.load(f)
names = {b["name"] for b in doc["benchmarks"]}
t.check({"BM_memcpy/64", "BM_memcpy/4096"} <= names and not any("BM_pairs" in n for n in names),
        f"--benchmark_filter not applied: {sorted(names)}")
compare = "/usr/share/benchmark/compare.py"
if t.check(os.path.exists(compare), "compare.py (libbenchmark-tools) is missing"):
    cp = subprocess.run(["/usr/bin/python3", compare, "benchmarks", out, out], capture_output=True, text=True,
                        timeout=t.guard(120))
    t.check(cp.returncode == 0 and "BM_memcpy/64" in cp.stdout,
            f"compare.py cannot read --benchmark_out's file: exit {cp.returncode}\n{cp.stdout}\n{cp.stderr}")
    # A suite's Google Benchmark file (the baseline before the switch) against its cmh file:
    # the rows carry Google Benchmark's names, so compare.py pairs them.
    base = os.path.join(tmp, "google.json")
    gp = subprocess.run([google, "--benchmark_filter=BM_memcpy", "--benchmark_min_time=0.01",
                         "--benchmark_repetitions=2", "--benchmark_out=" + base, "--benchmark_out_format=json"],
                        capture_output=True, text=True, timeout=t.guard(120))
    t.check(gp.returncode == 0, f"the Google Benchmark build failed: {gp.stderr[-1000:]}")
    cp = subprocess.run(["/usr/bin/python3", compare, "benchmarks", base, out], capture_output=True, text=True,
                        timeout=t.guard(120))
    plain = re.sub(r"\x1b\[[0-9;]*m", "", cp.stdout)  # compare.py colours its table
    paired = [line for line in plain.splitlines() if line.startswith(("BM_memcpy/64 ", "BM_memcpy/4096 "))]
    t.check(cp.returncode == 0 and len(paired) >= 2,
            f"compare.py does not pair Google Benchmark's rows with cmh's: exit {cp.returncode}\n{cp.stdout}\n{cp.stderr}")

# --benchmark_format=json: Google Benchmark's JSON alone on stdout, the report on stderr.
proc = t.run(cmh, ["--benchmark_filter=BM_empty", "--benchmark_format=json", "-f", "1", "-r", "20ms"] + quick,
             timeout=t.guard(120), check_exit=0)
try:
    doc = json.loads(proc.stdout)
    t.check([b["name"] for b in doc["benchmarks"]][:1] == ["BM_empty"],
            f"unexpected rows: {[b['name'] for b in doc['benchmarks']]}")
except ValueError as e:
    t.fail(f"--benchmark_format=json: stdout is not JSON ({e})\n{proc.stdout[:1000]}")
t.check("Result \"BM_empty\"" in proc.stderr,
        f"--benchmark_format=json: cmh's report is not on stderr\n--- stderr ---\n{proc.stderr[-3000:]}")

# A negative filter, and cmh's -p replacing an argument.
everything = t.run(cmh, ["--benchmark_list_tests"], check_exit=0).stdout.splitlines()
proc = t.run(cmh, ["--benchmark_filter=-^BM_", "--benchmark_list_tests"], check_exit=0)
t.check(proc.stdout.splitlines() == [n for n in everything if not n.startswith("BM_")] and "pairs_apply/1/10" in proc.stdout,
        f"negative filter: {proc.stdout.split()}")
proc = t.run(cmh, ["BM_accumulate/16$", "-p", "arg0=4096", "-f", "0", "-r", "20ms"] + quick, timeout=t.guard(120),
             check_exit=0)
t.check("4096" in proc.stdout and "BM_accumulate/16" in proc.stdout, "-p arg0=4096 did not run\n" + proc.stdout[-2000:])

# Errors: one line, exit 1, nothing run.
for bad, words in [("--benchmark_color=false", "no cmh equivalent"),
                   ("--benchmark_enable_random_interleaving=true", "no cmh equivalent"),
                   ("--benchmark_bogus=1", "not a Google Benchmark flag"),
                   ("--benchmark_min_time=fast", "expected seconds"),
                   ("--benchmark_repetitions=0", "positive integer"),
                   ("--benchmark_out_format=xml", "expected json, console or csv"),
                   ("--v=2", "no cmh equivalent")]:
    proc = t.run(cmh, [bad], timeout=t.guard(60), check_exit=1)
    t.check(words in proc.stderr and "Error parsing command line:" in proc.stderr and proc.stdout == "",
            f"{bad}: unclear error\n{proc.stderr}")
proc = t.run(cmh, ["--benchmark_filter=BM_(", "--benchmark_list_tests"], check_exit=1)
t.check("invalid regexp" in proc.stderr, "a bad --benchmark_filter is not a clear error\n" + proc.stderr)

t.done()

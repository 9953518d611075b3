"""Forked runs of a well-behaved benchmark: -f 2 -wf 1 prints the warmup fork and
both forks in order with JMH's progress line before each, pools the two forks'
iterations (the warmup fork's are dropped), runs every fork in its own process,
and -v EXTRA shows the fork command line and how long a fork took to start.
-f 0 runs in the host with JMH's warning; -o sends the report to a file."""
import json
import os
import re

import cmhtest as t
from fork_common import EXE, QUICK, row, run

tmp = os.environ.get("TMPDIR", "/tmp")

# -f 2 -wf 1, with -v EXTRA and a JSON file.
json_path = os.path.join(tmp, "runs.json")
proc = run(["Fault.ok", "-f", "2", "-wf", "1", "-v", "EXTRA", "-rf", "json", "-rff", json_path] + QUICK, expect=0)
out = proc.stdout
forks = re.findall(r"^# (Warmup Fork|Fork): (\d+) of (\d+)$", out, re.M)
t.check(forks == [("Warmup Fork", "1", "1"), ("Fork", "1", "2"), ("Fork", "2", "2")],
        f"fork lines {forks}, expected the warmup fork then forks 1 and 2 of 2\n{out[-3000:]}")
progress = re.findall(r"^# Run progress: (\d+\.\d\d)% complete, ETA (\d\d:\d\d:\d\d)$", out, re.M)
t.check([p for p, _ in progress] == ["0.00", "33.33", "66.67"],
        f"progress lines {progress}, expected 0.00/33.33/66.67 before the three forks")
# Each progress line comes right before its fork line.
t.check(len(re.findall(r"^# Run progress: .*\n# (Warmup )?Fork: ", out, re.M)) == 3,
        "a progress line does not directly precede every fork line")
r = row(out, "Fault.ok")
t.check(r is not None and r["Cnt"] == "4", f"summary row {r}: expected Cnt 4 (2 forks x 2 iterations, warmup fork dropped)")
pids = re.findall(r"^# Fork pid (\d+): ([\d.]+) ms from spawn to its first iteration$", out, re.M)
t.check(len(pids) == 3 and len({p for p, _ in pids}) == 3, f"expected three forks with distinct pids, got {pids}")
t.check(all(int(p) != proc.returncode for p, _ in pids), "pid lines malformed")
commands = re.findall(r"^# Fork command: .*$", out, re.M)
t.check(len(commands) == 3 and all("--cmh-fork-worker=" in c and EXE in c for c in commands),
        f"-v EXTRA should show each fork's command line, got {commands}")
if pids:
    print("fork start-up (spawn to first iteration), ms:", ", ".join(ms for _, ms in pids))
with open(json_path) as f:
    records = json.load(f)
t.check(len(records) == 1, f"JSON holds {len(records)} records, expected 1")
if records:
    raw = records[0]["primaryMetric"]["rawData"]
    t.check(len(raw) == 2 and all(len(fork) == 2 for fork in raw), f"rawData {raw}: expected 2 forks x 2 iterations")
    t.check(records[0]["cmh"]["runComplete"] is True and records[0]["cmh"]["failed"] is False,
            f"cmh block {records[0]['cmh']}")

# Without -v EXTRA the command line is not shown.
proc = run(["Fault.ok", "-f", "1"] + QUICK, expect=0)
t.check("# Fork command:" not in proc.stdout, "the fork command line is shown without -v EXTRA")

# -f 0: in the host process, with the warning.
proc = run(["Fault.ok", "-f", "0"] + QUICK, expect=0)
t.check("# Fork: N/A, test runs in the host process" in proc.stdout, "no in-process fork line for -f 0")
t.check("WARNING: Run in the host process only to debug" in proc.stdout, "no non-forked warning for -f 0")
t.check("--cmh-fork-worker" not in proc.stdout, "-f 0 started a fork")
r = row(proc.stdout, "Fault.ok")
t.check(r is not None and r["Cnt"] == "2", f"-f 0 summary row {r}")

# -o: the report goes to the file.
report = os.path.join(tmp, "report.txt")
proc = run(["Fault.ok", "-f", "1", "-o", report] + QUICK, expect=0)
with open(report) as f:
    text = f.read()
t.check("# Fork: 1 of 1" in text and row(text, "Fault.ok") is not None, "-o file lacks the report")
t.check("# Fork: 1 of 1" not in proc.stdout, "-o still printed the report on stdout")

# An external profiler: its command prefix and fork argument reach the fork, it
# consumes the fork's stdout (echoed only with -v EXTRA) and its trial results are
# pooled over the forks.
probe = os.path.join(tmp, "wrap-probe.txt")
proc = run(["Probe.bindings", "-f", "2", "-prof", "wrap"] + QUICK, expect=0, env={"CMH_PROBE_FILE": probe})
with open(probe) as f:
    facts = dict(line.strip().split("=", 1) for line in f if "=" in line)
t.check(facts.get("CMH_WRAPPED") == "yes", f"the profiler's command prefix did not wrap the fork: {facts}")
t.check(facts.get("CMH_WRAP_ARG") == "from-profiler", f"the profiler's fork argument did not arrive: {facts}")
t.check("probe-line" not in proc.stdout and "use -v EXTRA to copy to console" in proc.stdout,
        "output consumed by the profiler was echoed, or the note is missing")
lines = row(proc.stdout, "Probe.bindings:wrap.probe_lines")
t.check(lines is not None and lines["Score"] == "2.000", f"wrap.probe_lines {lines}: expected one line from each fork")
proc = run(["Probe.bindings", "-f", "1", "-prof", "wrap", "-v", "EXTRA"] + QUICK, expect=0, env={"CMH_PROBE_FILE": probe})
t.check("probe-line: the probe ran" in proc.stdout, "-v EXTRA did not copy the consumed output to the console")
t.check(re.search(r"^# Fork command: .*env CMH_WRAPPED=yes .*--cmh-fork-worker=", proc.stdout, re.M) is not None,
        "-v EXTRA does not show the profiler's prefix in the fork command")

t.done()

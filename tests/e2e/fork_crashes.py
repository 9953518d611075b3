"""A fork that crashes, aborts, exits early or throws is reported as such (with
the tail of its output), the benchmark is FAILED in the summary with its reason,
the run goes on with the next benchmark (or stops with -foe true), results of
forks that completed are kept, no process is left behind, and the exit status is 2."""
import json
import os

import cmhtest as t
from fork_common import QUICK, failed_row, row, run

tmp = os.environ.get("TMPDIR", "/tmp")

CASES = [
    ("Fault.segfault", "<forked process failed: signal 11 (Segmentation fault)>", "about to dereference a null pointer"),
    ("Fault.abort", "<forked process failed: signal 6 (Aborted)>", "calling abort()"),
    ("Fault.exit3", "<forked process failed: exit code 3, it exited before the harness had finished with it",
     "calling exit(3)"),
    ("Fault.quick_exit0", "<forked process failed: exit code 0, it exited before the harness had finished with it",
     None),
]
for name, message, tail in CASES:
    proc = run([name, "-f", "1"] + QUICK)
    failed_row(proc, name, message)
    if tail:
        t.check("last='" in proc.stdout and tail in proc.stdout.split(message)[-1],
                f"{name}: the output tail is not shown after the failure\n{proc.stdout[-2000:]}")

# Exceptions: <failure> on the iteration line, with the type and what().
proc = run(["Fault.throws", "-f", "1"] + QUICK)
failed_row(proc, "Fault.throws", "std::runtime_error: the benchmark failed on purpose")
t.check("# Warmup Iteration   1: <failure>" in proc.stdout, "no <failure> on the iteration line\n" + proc.stdout[-2000:])
proc = run(["Fault.setup_throws", "-f", "1"] + QUICK)
failed_row(proc, "Fault.setup_throws", "std::logic_error: set-up refused to run")
t.check("Iteration   1: <failure>" in proc.stdout, "no <failure> for the fixture's exception\n" + proc.stdout[-2000:])

# The run goes on after a failed benchmark; -foe true stops it.
proc = run(["Fault.(abort|ok)", "-f", "1"] + QUICK)
failed_row(proc, "Fault.abort", "signal 6 (Aborted)")
ok = row(proc.stdout, "Fault.ok")
t.check(ok is not None and ok["Score"] != "FAILED", f"Fault.ok did not run after Fault.abort failed: {ok}")
proc = run(["Fault.(abort|ok)", "-f", "1", "-foe", "true"] + QUICK)
failed_row(proc, "Fault.abort", "fail on error (-foe true) was requested")
t.check(row(proc.stdout, "Fault.ok") is None and "Not run" in proc.stdout and "Fault.ok thrpt" in proc.stdout,
        "-foe true: Fault.ok should be listed as not run\n" + proc.stdout[-1500:])

# The second of three forks crashes: the first fork's results are kept (and labelled), the third never runs.
counter = os.path.join(tmp, "forks.count")
if os.path.exists(counter):
    os.remove(counter)
json_path = os.path.join(tmp, "crash.json")
proc = run(["Fault.crash_second", "-f", "3", "-rf", "json", "-rff", json_path] + QUICK,
           env={"CMH_FAULT_COUNTER": counter})
failed_row(proc, "Fault.crash_second", "signal 11 (Segmentation fault)")
t.check("# Fork: 3 of 3" not in proc.stdout, "a fork ran after the benchmark had failed")
with open(counter) as f:
    t.check(f.read().strip() == "2", "expected exactly two forks to start")
with open(json_path) as f:
    records = json.load(f)
rec = next((r for r in records if r["benchmark"] == "Fault.crash_second"), None)
if t.check(rec is not None, f"no JSON record for the failed benchmark: {records}"):
    cmh = rec["cmh"]
    t.check(cmh["failed"] is True and cmh["forksCompleted"] == 1, f"cmh block {cmh}")
    t.check(cmh["failure"]["kind"] and cmh["failure"].get("fork") == 2 and cmh["failure"].get("signal") == 11,
            f"failure block {cmh['failure']}")

t.done()

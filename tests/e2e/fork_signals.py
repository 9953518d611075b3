"""Interrupting the host: SIGINT and SIGTERM stop the running fork, the report and
the JSON file hold what completed, marked incomplete, and the exit status is
128+signal; kill -9 of the host mid-run leaves a valid JSON file with every
benchmark completed so far, and takes its fork along. The run lock refuses a
second run (naming -Dcmh.ignoreLock=true), which the override lets through."""
import fcntl
import json
import os
import signal
import time

import cmhtest as t
from fork_common import check_no_children, run, start, wait_for_text

tmp = os.environ.get("TMPDIR", "/tmp")
LONG = ["Fault.ok|Probe.bindings", "-wi", "1", "-i", "20", "-w", "50ms", "-r", "100ms"]


def interrupted_run(how, expect_status, extra=("-f", "2")):
    json_path = os.path.join(tmp, f"signal-{how}{''.join(extra)}.json")
    out_path = os.path.join(tmp, f"signal-{how}{''.join(extra)}.txt")
    proc = start(LONG + ["-rf", "json", "-rff", json_path] + list(extra), stdout_path=out_path)
    # Wait until Fault.ok is done and the second benchmark is running.
    reached = wait_for_text(out_path, r"# Benchmark: Probe\.bindings[\s\S]*# Fork: [^\n]*\n[\s\S]*Iteration   1:")
    t.check(reached, f"{how}: the run never reached the second benchmark")
    proc.send_signal({"INT": signal.SIGINT, "TERM": signal.SIGTERM, "KILL": signal.SIGKILL}[how])
    proc.wait(timeout=t.guard(60))
    proc.out_file.close()
    time.sleep(0.2)  # a fork orphaned by kill -9 dies by PR_SET_PDEATHSIG; give the kernel a moment
    check_no_children(proc.mark, how)
    t.check(proc.returncode == expect_status, f"{how}: exit {proc.returncode}, expected {expect_status}")
    with open(json_path) as f:
        records = json.load(f)  # must be valid JSON whatever happened
    with open(out_path) as f:
        text = f.read()
    return records, text


# -f 0 as well: the in-process trial ends at the next iteration boundary.
for how, status, extra in (("INT", 130, ["-f", "2"]), ("TERM", 143, ["-f", "2"]), ("INT", 130, ["-f", "0"])):
    records, text = interrupted_run(how, status, extra)
    names = [r["benchmark"] for r in records]
    t.check("Fault.ok" in names, f"{how}: the completed benchmark is missing from the JSON: {names}")
    t.check(all(r["cmh"]["runComplete"] is False for r in records), f"{how}: JSON not marked incomplete")
    ok = next((r for r in records if r["benchmark"] == "Fault.ok"), None)
    t.check(ok is not None and ok["cmh"]["failed"] is False, f"{how}: the completed benchmark is marked failed")
    t.check(f"interrupted by signal {status - 128}" in text, f"{how}: the report does not say it was interrupted")
    t.check("Total time:" in text and "Benchmark result is saved to" in text, f"{how}: no summary after the signal")

records, text = interrupted_run("KILL", -signal.SIGKILL)
t.check([r["benchmark"] for r in records] == ["Fault.ok"],
        f"kill -9: the JSON should hold exactly the completed benchmark, got {[r['benchmark'] for r in records]}")
t.check(records and records[0]["primaryMetric"]["rawData"] and records[0]["cmh"]["runComplete"] is False,
        "kill -9: the completed benchmark's record is incomplete or not marked as from an unfinished run")

# The lock: held by someone else, a run is refused before it starts; the override runs anyway.
SHORT = ["Fault.ok", "-f", "1", "-wi", "0", "-i", "1", "-r", "20ms"]
with open(os.path.join(tmp, "cmh.lock"), "w") as held:
    fcntl.flock(held, fcntl.LOCK_EX)
    proc = run(SHORT, expect=1)
    out = proc.stdout + proc.stderr
    t.check("unable to acquire the cmh lock" in out and "-Dcmh.ignoreLock=true" in out,
            f"lock refusal message missing\n{out[-1500:]}")
    t.check("# Fork:" not in out, "a run started while the lock was held")
    proc = run(SHORT + ["-Dcmh.ignoreLock=true"], expect=0)
    t.check("# Fork: 1 of 1" in proc.stdout, "-Dcmh.ignoreLock=true did not run")
proc = run(SHORT, expect=0)  # released: runs again

t.done()

"""Interrupts and stale files (issue 16, findings 8 and 9): SIGQUIT and SIGUSR1 are
interrupts like SIGINT (status 128+N, a valid file marked incomplete); a second
Ctrl-C while the first benchmark runs still leaves a file that says the run is
incomplete; the temporary file a writer killed with -9 left behind is removed at
the next start, one of a live process is not."""
import json
import os
import signal
import subprocess
import time

import cmhtest as t
from fork_common import check_no_children, start, wait_for_text
import fork_common
from host_common import EXE, SHORT, TMP, load_json, run, tmp_path

fork_common.EXE = EXE  # start() runs the host-fault executable
LONG = ["Host.ok", "-f", "1", "-wi", "0", "-i", "200", "-r", "100ms"]


def interrupted(signals, name):
    json_path = tmp_path(f"{name}.json")
    out_path = tmp_path(f"{name}.txt")
    if os.path.exists(json_path):
        os.unlink(json_path)
    proc = start(LONG + ["-rf", "json", "-rff", json_path], stdout_path=out_path)
    t.check(wait_for_text(out_path, r"Iteration   1:"), f"{name}: the run never reached its first iteration")
    for sig in signals:
        proc.send_signal(sig)
    proc.wait(timeout=60)
    proc.out_file.close()
    check_no_children(proc.mark, name)
    expected = 128 + signals[0]
    t.check(proc.returncode == expected, f"{name}: exit {proc.returncode}, expected {expected}")
    records = load_json(json_path, name) if os.path.exists(json_path) else None
    t.check(records is not None, f"{name}: no result file")
    if records is not None:
        t.check(len(records) >= 1 and all(r["cmh"]["runComplete"] is False for r in records),
                f"{name}: the result file does not say the run is incomplete: {records!r:.300}")
    with open(out_path) as f:
        text = f.read()
    t.check(f"interrupted by signal {signals[0]}" in text, f"{name}: the report does not say it was interrupted")
    return text


interrupted([signal.SIGQUIT], "sigquit")
interrupted([signal.SIGUSR1], "sigusr1")
interrupted([signal.SIGINT], "sigint")
# Ctrl-C twice while the first benchmark runs: the fork is killed at once, the file still written.
interrupted([signal.SIGINT, signal.SIGINT], "double-sigint")

# Stale temporary files: one of a dead writer is removed at start, one of a live process stays.
target = tmp_path("stale.json")
dead = subprocess.Popen(["true"])
dead.wait()
stale = os.path.join(TMP, f".stale.json.tmp-{dead.pid}-0")
live = os.path.join(TMP, f".stale.json.tmp-{os.getpid()}-0")
other = os.path.join(TMP, f".other.json.tmp-{dead.pid}-0")
for p in (stale, live, other):
    with open(p, "w") as f:
        f.write("[")
run(["Host.ok"] + SHORT + ["-rf", "json", "-rff", target], expect=0)
t.check(not os.path.exists(stale), "the temporary file of a dead writer was not removed")
t.check(os.path.exists(live), "the temporary file of a live process was removed")
t.check(os.path.exists(other), "a temporary file of another result file was removed")
for p in (live, other):
    os.unlink(p)

t.done()

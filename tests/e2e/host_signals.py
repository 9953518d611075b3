"""Interrupts and stale files (issue 16, findings 8 and 9): SIGQUIT and SIGUSR1 are
interrupts like SIGINT (status 128+N, a valid file marked incomplete); a second
Ctrl-C while the first benchmark runs still leaves a file that says the run is
incomplete; so does a Ctrl-C before anything ran (before the first fork was
spawned, during the first fork's warmup, during a -f 0 warmup), in a form the
readers understand: strict JSON with the interrupted benchmark's record, marked
failed and incomplete, which cmh-compare reads and reports as failed. The temporary
file a writer killed with -9 left behind is removed at the next start, one of a
live process is not."""
import os
import shutil
import signal
import subprocess
import sys
import time

import cmhtest as t
from fork_common import check_no_children, start, wait_for_text
import fork_common
from gab_extract import ExtractError, parse_strict
from host_common import EXE, SHORT, TMP, run, tmp_path

COMPARE = sys.argv[2]
fork_common.EXE = EXE  # start() runs the host-fault executable
LONG = ["Host.ok", "-f", "1", "-wi", "0", "-i", "200", "-r", "100ms"]


def read_records(path, name):
    """The file as a strict JSON reader (JSON.parse) sees it, or None."""
    if not os.path.exists(path):
        t.fail(f"{name}: no result file")
        return None
    with open(path) as f:
        try:
            return parse_strict(f.read())
        except ExtractError as e:
            t.fail(f"{name}: {path}: {e}")
            return None


def wait_for_file(path, limit=60):
    """Waits until the file exists (bounded by `limit` seconds, not a timing check)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.02)
    return False


def interrupted(signals, name, args=None, wait=(r"Iteration   1:", "its first iteration"), env=None, hold=None,
                nothing_ran=False):
    json_path = tmp_path(f"{name}.json")
    out_path = tmp_path(f"{name}.txt")
    if os.path.exists(json_path):
        os.unlink(json_path)
    proc = start((args or LONG) + ["-rf", "json", "-rff", json_path], stdout_path=out_path, env=env)
    if hold:  # the host holds before the fork (the `hold` profiler) until the file goes
        t.check(wait_for_file(hold), f"{name}: the host never reached the point before the first fork")
    else:
        t.check(wait_for_text(out_path, wait[0]), f"{name}: the run never reached {wait[1]}")
    for sig in signals:
        proc.send_signal(sig)
    if hold:
        os.unlink(hold)
    proc.wait(timeout=t.guard(60))
    proc.out_file.close()
    check_no_children(proc.mark, name)
    expected = 128 + signals[0]
    t.check(proc.returncode == expected, f"{name}: exit {proc.returncode}, expected {expected}")
    records = read_records(json_path, name)
    if records is not None:
        t.check(len(records) >= 1 and all(r["cmh"]["runComplete"] is False for r in records),
                f"{name}: the result file does not say the run is incomplete: {records!r:.300}")
        if nothing_ran:
            first = records[0] if records else {}
            t.check(first.get("benchmark") == "Host.ok" and first["cmh"]["failed"] is True
                    and first["cmh"].get("failure", {}).get("kind") == "interrupted"
                    and first["primaryMetric"]["rawData"] in ([], [[]]),
                    f"{name}: not the interrupted benchmark's record, failed, without data: {records!r:.600}")
            # cmh's own reader: the record is read and reported as failed, not compared.
            base = tmp_path(f"{name}-base.json")
            shutil.copyfile(json_path, base)
            cmp = subprocess.run([COMPARE, base, json_path], capture_output=True, text=True, timeout=t.guard(60),
                                 stdin=subprocess.DEVNULL)
            t.check(cmp.returncode == 0 and "failed in the base run" in cmp.stdout,
                    f"{name}: cmh-compare did not read the file as a failed run (exit {cmp.returncode})\n"
                    f"{cmp.stdout[-1500:]}{cmp.stderr[-500:]}")
    with open(out_path) as f:
        text = f.read()
    t.check(f"interrupted by signal {signals[0]}" in text, f"{name}: the report does not say it was interrupted")
    return text


interrupted([signal.SIGQUIT], "sigquit")
interrupted([signal.SIGUSR1], "sigusr1")
interrupted([signal.SIGINT], "sigint")
# Ctrl-C twice while the first benchmark runs: the fork is killed at once, the file still written.
interrupted([signal.SIGINT, signal.SIGINT], "double-sigint")

# Ctrl-C before anything ran. Before the first fork was spawned: the `hold` profiler keeps
# the host in its before-the-fork step until the signal has been sent.
hold = tmp_path("hold-before-fork")
if os.path.exists(hold):
    os.unlink(hold)
text = interrupted([signal.SIGINT], "sigint-before-fork", args=LONG + ["-prof", "hold"],
                   env={"CMH_HOLD_FILE": hold}, hold=hold, nothing_ran=True)
t.check("Iteration" not in text, "sigint-before-fork: an iteration ran after the interrupt")
# During the first fork's first warmup iteration: no measurement exists yet.
interrupted([signal.SIGINT], "sigint-in-warmup", args=["Host.ok", "-f", "1", "-wi", "200", "-w", "100ms", "-i", "1"],
            wait=(r"# Warmup Iteration   1:", "its first warmup iteration"), nothing_ran=True)
# The same in-process (-f 0), where the engine stops at the iteration's end.
interrupted([signal.SIGINT], "sigint-in-warmup-f0", args=["Host.ok", "-f", "0", "-wi", "200", "-w", "100ms", "-i", "1"],
            wait=(r"# Warmup Iteration   1:", "its first warmup iteration"), nothing_ran=True)

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

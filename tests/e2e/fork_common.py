"""Helpers of the fork tests (fork_*.py): the fault executable, short iterations,
and a run wrapper that marks every process it starts through the environment
(forks inherit it), so that a test can prove no fork outlived its host."""
import os
import re
import signal
import subprocess
import sys
import time
import uuid

import cmhtest as t

EXE = sys.argv[1]
QUICK = ["-wi", "1", "-i", "2", "-w", "30ms", "-r", "30ms"]


def marked_processes(mark):
    """PIDs of live processes whose environment carries CMH_TEST_MARK=<mark>."""
    needle = ("CMH_TEST_MARK=" + mark).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            pass
    return found


def check_no_children(mark, what):
    left = marked_processes(mark)
    t.check(not left, f"{what}: processes left running after the host exited: {left}")


def run(args, expect=None, env=None, timeout=120):
    """Runs the fault executable to completion; checks the exit status and that
    nothing it started is still alive afterwards."""
    mark = uuid.uuid4().hex
    full_env = dict(env or {}, CMH_TEST_MARK=mark)
    proc = t.run(EXE, args, timeout=timeout, env=full_env, check_exit=expect)
    check_no_children(mark, " ".join(args))
    return proc


def start(args, env=None, stdout_path=None):
    """Starts the fault executable in the background, its output into a file."""
    mark = uuid.uuid4().hex
    full_env = dict(os.environ, **(env or {}), CMH_TEST_MARK=mark)
    out = open(stdout_path, "w")
    proc = subprocess.Popen([EXE] + list(args), stdout=out, stderr=subprocess.STDOUT, env=full_env,
                            stdin=subprocess.DEVNULL)
    proc.mark = mark
    proc.out_file = out
    return proc


def wait_for_text(path, pattern, limit=60):
    """Waits until the file contains the regex (bounded by `limit` seconds, not a timing check)."""
    deadline = time.monotonic() + t.guard(limit)
    while time.monotonic() < deadline:
        with open(path, errors="replace") as f:
            if re.search(pattern, f.read()):
                return True
        time.sleep(0.02)
    return False


def row(stdout, name):
    for r in t.summary_rows(stdout):
        if r["Benchmark"] == name:
            return r
    return None


def failed_row(proc, name, message):
    """Checks the run exited 2, shows `message`, and lists `name` as FAILED in the summary."""
    out = proc.stdout + proc.stderr
    t.check(proc.returncode == 2, f"{name}: exit {proc.returncode}, expected 2\n{out[-3000:]}")
    t.check(message in out, f"{name}: no {message!r} in the output\n{out[-3000:]}")
    r = row(proc.stdout, name)
    t.check(r is not None and r["Score"] == "FAILED", f"{name}: not FAILED in the summary\n{proc.stdout[-2000:]}")
    t.check("Failed (no score" in proc.stdout and name in proc.stdout.split("Failed (no score")[-1],
            f"{name}: missing from the summary's failed list\n{proc.stdout[-2000:]}")
    t.check("terminate called" not in out and "Traceback" not in out, f"{name}: the host itself crashed\n{out[-2000:]}")

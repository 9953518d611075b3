#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_workload.py [--preload LIB] [--allocator NAME] [--exit N] [--stderr REGEX] -- PROGRAM ARGS...

Runs one stress workload (bench/alloc/stress/) and checks how it ended: by default that
it exited 0, that NAME was the malloc in effect and that it verified at least one block's
contents; with --exit N (N != 0), that it exited N and printed one stderr line matching
REGEX. No timing is checked."""
import os
import re
import subprocess
import sys


def fail(message, proc=None):
    print(f"FAIL: {message}", file=sys.stderr)
    if proc is not None:
        print(f"--- stdout\n{proc.stdout}--- stderr\n{proc.stderr}", file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if "--" not in args:
        fail("usage: check_workload.py [options] -- PROGRAM ARGS...")
    split = args.index("--")
    opts, cmd = args[:split], args[split + 1:]
    preload, allocator, want_exit, want_stderr = None, "glibc", 0, None
    while opts:
        key, value = opts.pop(0), opts.pop(0)
        if key == "--preload":
            preload = value
        elif key == "--allocator":
            allocator = value
        elif key == "--exit":
            want_exit = int(value)
        elif key == "--stderr":
            want_stderr = value
        else:
            fail(f"unknown option {key}")
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "CMH_ALLOC")}
    if preload:
        env["LD_PRELOAD"] = preload
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
    if proc.returncode != want_exit:
        fail(f"exit status {proc.returncode}, expected {want_exit}", proc)
    if want_exit != 0:
        lines = proc.stderr.strip().splitlines()
        if len(lines) != 1 or not re.search(want_stderr or ".", lines[0]):
            fail(f"expected one stderr line matching {want_stderr!r}", proc)
        print(f"ok: exit {want_exit}: {lines[0]}")
        return
    seen = dict(line.split(None, 1) for line in proc.stdout.splitlines() if line.startswith(("allocator ", "verified ")))
    if seen.get("allocator") != allocator:
        fail(f"the malloc in effect was {seen.get('allocator')}, expected {allocator}", proc)
    if not seen.get("verified", "0").isdigit() or int(seen["verified"]) < 1:
        fail("no block's contents were verified", proc)
    if proc.stderr.strip():
        fail("unexpected output on stderr", proc)
    print(f"ok: {allocator}, {seen['verified']} blocks verified")


if __name__ == "__main__":
    main()

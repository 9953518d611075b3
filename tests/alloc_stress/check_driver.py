#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_driver.py RUN BUILD: runs the stress-suite driver (bench/alloc/stress/run) end to
end at tiny sizes and checks its report: glibc and cmh columns, each peer measured or
listed as skipped, the ratio tables with their geometric means, every run verified; and
that a bad option gets one line and exit 2, and that a program whose output changes with
the allocator is reported as failed and a peer that is not installed as skipped. Never --write: the test leaves RESULTS.md alone."""
import contextlib
import importlib.machinery
import io
import re
import subprocess
import sys


def fail(message, out=""):
    print(f"FAIL: {message}\n{out}", file=sys.stderr)
    sys.exit(1)


def main():
    run, build = sys.argv[1], sys.argv[2]
    proc = subprocess.run([run, build, "--only", "xmalloc,footprint-small", "--rounds", "1", "--scale", "0.002"],
                          capture_output=True, text=True, timeout=240)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        fail(f"driver exited {proc.returncode}", out)
    header = re.search(r"^\| s \| (.*) \|$", proc.stdout, re.M)
    if not header:
        fail("no CPU time table", out)
    columns = [c.strip() for c in header.group(1).split("|")]
    if columns[:2] != ["glibc", "cmh"]:
        fail(f"columns {columns}, expected glibc and cmh first", out)
    for peer in ("jemalloc", "mimalloc", "tcmalloc"):
        if peer not in columns and not re.search(rf"Skipped:.*\b{peer} \(", proc.stdout):
            fail(f"{peer} is neither a column nor listed as skipped", out)
    for title in ("CPU time / glibc", "peak RSS / glibc"):
        if not re.search(rf"^\| {re.escape(title)} \|", proc.stdout, re.M):
            fail(f"no table {title!r}", out)
    if len(re.findall(r"^\| \*\*geometric mean\*\* \|", proc.stdout, re.M)) < 2:
        fail("no geometric-mean rows", out)
    for workload in ("xmalloc", "footprint-small"):
        row = re.search(rf"^\| {workload} \| ([^\n]*)$", proc.stdout, re.M)
        if not row or "FAILED" in row.group(1) or "n/a" in row.group(1):
            fail(f"row {workload} missing or failed", out)
    bad = subprocess.run([run, build, "--rounds", "zero"], capture_output=True, text=True, timeout=60)
    if bad.returncode != 2 or len(bad.stderr.strip().splitlines()) != 1 or "--rounds" not in bad.stderr:
        fail(f"bad --rounds: exit {bad.returncode}, stderr {bad.stderr!r}")
    # A program that prints its LD_PRELOAD: under every allocator but glibc, its output differs.
    driver = importlib.machinery.SourceFileLoader("stress_run", run).load_module()
    driver.WORKLOADS["echo-preload"] = {"exe": "/bin/sh", "args": ["-c", "echo $LD_PRELOAD"], "scaled": False,
                                        "same_output": True, "what": "prints its LD_PRELOAD"}
    driver.PEERS["nosuchalloc"] = (["libnosuchalloc.so.9"], "nosuchalloc")  # a peer that is not installed
    sys.argv = [run, build, "--only", "echo-preload", "--rounds", "1"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = driver.main()
    report = printed.getvalue()
    if status != 1 or not re.search(r"^\| echo-preload \| [0-9.]+ \| FAILED \|", report, re.M) or \
            "echo-preload under cmh: its output differs from the glibc run's" not in report:
        fail(f"a program with allocator-dependent output: status {status}, expected 1 and FAILED", report)
    if not re.search(r"Skipped:.*nosuchalloc \(not installed", report):
        fail("a peer allocator that is not installed is not listed as skipped", report)
    print(f"ok: columns {', '.join(columns)}")


if __name__ == "__main__":
    main()

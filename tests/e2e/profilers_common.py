"""Shared by the profilers_*.py tests: the purpose-built executables they are given
(--profiled with the bundled allocator, --noalloc without) and summary-table reading."""
import argparse

import cmhtest as t

QUICK = ["-f", "1", "-wi", "1", "-i", "3", "-w", "50ms", "-r", "100ms"]


def executables():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiled", required=True)
    parser.add_argument("--noalloc", required=True)
    parser.add_argument("--deny-perf", help="runs a program with perf_event_open forbidden")
    return parser.parse_args()


def rows_of(proc):
    """The summary table as {"Group.name:label": row}."""
    return {r["Benchmark"]: r for r in t.summary_rows(proc.stdout)}


def run_quick(exe, args, extra=()):
    """A short forked run that must succeed; returns (process, rows)."""
    proc = t.run(exe, QUICK + list(args) + list(extra), timeout=200, check_exit=0)
    return proc, rows_of(proc)


def value(rows, name, proc):
    """The score of summary row `name`, or None (a failed check) when the row is missing."""
    row = rows.get(name)
    if not t.check(row is not None, f"no summary row {name}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"):
        return None
    return t.score(row["Score"])


def close(actual, expected, rel=1e-6):
    return actual is not None and abs(actual - expected) <= rel * abs(expected)

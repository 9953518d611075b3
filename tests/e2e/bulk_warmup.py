"""JMH's warmup modes, within each fork. cmh-bulk-warmup's benchmarks log every
iteration they start ("<pid> <benchmark> <params> <mode> <kind>"); per process the
log must show JMH's order (Runner.getActionPlans): the -wmb benchmarks, then under
BULK and BULK_INDI every selected benchmark (sorted by name, then parameters), each
once, warmup only; then the fork's own benchmark, measured at once (BULK) or after its
own warmup (BULK_INDI, INDI). With -f 0 the bulk warmups run once, in the host. A
bulk warmup that fails is shown and the run goes on, unless -foe true. A bad -wm is
a command-line error."""
import json
import os
import sys
import tempfile

import cmhtest as t

exe = sys.argv[1]
tmp = tempfile.mkdtemp()
SHORT = ["-wi", "1", "-i", "1", "-w", "10ms", "-r", "10ms"]
A, B1, B2, C, X = ("Bulk.a", "-"), ("Bulk.b", "size=1"), ("Bulk.b", "size=2"), ("Bulk.c", "-"), ("Extra.x", "-")
SELECTED = [A, B1, B2, C]


def run(args, status=0):
    """Runs the program with a fresh log; returns (process, [(pid, [(bench, params, kind)...])...])
    with the processes in the order they first logged."""
    log = os.path.join(tmp, "iterations.log")
    if os.path.exists(log):
        os.remove(log)
    proc = t.run(exe, args, env={"CMH_WARMUP_LOG": log}, timeout=200, check_exit=status)
    per_pid = {}
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                pid, bench, params, _mode, kind = line.split()
                per_pid.setdefault(pid, []).append((bench, params, kind))
    return proc, list(per_pid.items())


def warm(*runs):
    return [(b, p, "warmup") for b, p in runs]


def measured(r):
    return [(r[0], r[1], "measurement")]


def check_forks(what, forks, expected_by_own):
    """Each fork's sequence is expected_by_own(own run); every selected run has one fork."""
    t.check(len(forks) == len(SELECTED), f"{what}: {len(forks)} processes logged, expected {len(SELECTED)}\n{forks}")
    for own in SELECTED:
        wanted = expected_by_own(own)
        found = [seq for _, seq in forks if seq and seq[-1] == measured(own)[0]]
        t.check(found == [wanted], f"{what}: the fork of {own} ran\n  {found}\nexpected\n  {wanted}")


# -wm BULK: in each fork every selected benchmark warms up, in order, then the fork's own
# benchmark is measured without a warmup of its own.
proc, forks = run(["Bulk", "-wm", "BULK", "-f", "1"] + SHORT)
check_forks("-wm BULK", forks, lambda own: warm(*SELECTED) + measured(own))
t.check("# Bulk warmup 1 of 4: Bulk.a [avgt]" in proc.stdout and "# Bulk warmup 3 of 4: Bulk.b (size = 2) [avgt]" in proc.stdout,
        "the report does not name the bulk warmups\n" + proc.stdout[:3000])
t.check("# Bulk warmup: 4 benchmarks warm up first in each fork (-wm BULK)" in proc.stdout,
        "the header does not say there is a bulk warmup\n" + proc.stdout[:3000])
t.check("# Warmup: <none>" in proc.stdout, "under BULK the benchmark's own warmup is not shown as none\n" + proc.stdout[:3000])

# BULK_INDI: the same, and then the benchmark's own warmup.
_, forks = run(["Bulk", "-wm", "BULK_INDI", "-f", "1"] + SHORT)
check_forks("-wm BULK_INDI", forks, lambda own: warm(*SELECTED) + warm(own) + measured(own))

# INDI (the default) with -wmb: the -wmb benchmarks warm up first; -e does not apply to them.
_, forks = run(["Bulk.a", "-e", "Extra", "-wmb", "Extra.x", "-f", "1"] + SHORT)
t.check([seq for _, seq in forks] == [warm(X) + warm(A) + measured(A)], f"-wmb Extra.x (INDI): {forks}")

# BULK with -wmb: -wmb first, then the selected ones; a benchmark in both runs once.
_, forks = run(["Bulk.(a|c)", "-wm", "BULK", "-wmb", "Bulk.c,Extra", "-f", "1"] + SHORT)
for own in (A, C):
    found = [seq for _, seq in forks if seq[-1] == measured(own)[0]]
    t.check(found == [warm(C, X, A) + measured(own)], f"-wm BULK -wmb Bulk.c,Extra, fork of {own}: {found}")

# -f 0: once, in this process, before the first benchmark; the results file says no warmup.
path = os.path.join(tmp, "bulk.json")
_, forks = run(["Bulk.(a|c)", "-wm", "bulk", "-f", "0", "-rf", "json", "-rff", path] + SHORT)
t.check([seq for _, seq in forks] == [warm(A, C) + measured(A) + measured(C)], f"-wm bulk -f 0: {forks}")
with open(path) as f:
    records = json.load(f)
t.check([r["warmupIterations"] for r in records] == [0, 0], "under BULK the JSON should say 0 warmup iterations")

# A bulk warmup that fails: shown, and the measured benchmark still succeeds (JMH); -foe stops it.
proc, forks = run(["Bulk.a", "-wmb", "Broken", "-f", "1"] + SHORT)
t.check("broken on purpose" in proc.stdout and "<failure>" in proc.stdout,
        "the failing bulk warmup is not shown\n" + proc.stdout[-3000:])
t.check(any(seq[-1:] == measured(A) for _, seq in forks), f"Bulk.a was not measured after the failed bulk warmup: {forks}")
proc, _ = run(["Bulk.a", "-wmb", "Broken", "-f", "1", "-foe", "true"] + SHORT, status=2)
rows = {r["Benchmark"]: r for r in t.summary_rows(proc.stdout)}
t.check(rows.get("Bulk.a", {}).get("Score") == "FAILED", "under -foe a failed bulk warmup does not fail the run\n" +
        proc.stdout[-3000:])
t.check("the bulk warmup of Broken.throws failed (-foe true)" in proc.stdout, "the -foe failure is not explained\n" +
        proc.stdout[-3000:])

# Bad input: one line, exit 1, nothing run.
proc, forks = run(["Bulk.a", "-wm", "SOMETIMES"], status=1)
t.check("unknown warmup mode" in proc.stderr and not forks, f"-wm SOMETIMES: {proc.stderr}")
proc, forks = run(["Bulk.a", "-wmb", "Bulk.(", "-f", "1"], status=1)
t.check("Error parsing command line" in proc.stderr and not forks, f"-wmb with a bad regexp: {proc.stderr}")

t.done()

"""End-to-end: -t 2 -pin cpus on a machine with at least 2 allowed CPUs (skipped
otherwise). Inside the fork every worker records sched_getcpu() on each call; each
must have run only on the CPU cmh.pinning records for it, the CPUs must be distinct
and in the process's affinity mask. Also -pin as a CPU list, -f 0, the error for more
threads than CPUs, a CPU outside the mask, a bad -pin value, and -strict refusing to
run unpinned (with the same reason a warning without -strict)."""
import argparse
import json
import os
import re
import tempfile

from cmhtest import check, done, run, skip

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
args = parser.parse_args()
work = tempfile.mkdtemp(prefix="cmh-pin-")
allowed = sorted(os.sched_getaffinity(0))
if len(allowed) < 2:
    skip(f"this process may run on {len(allowed)} CPU ({allowed}); -t 2 -pin cpus needs 2")


def pinned_run(name, extra):
    path = os.path.join(work, name + ".json")
    proc = run(args.bench, ["Pin.where"] + extra + ["-rf", "json", "-rff", path], timeout=120)
    if not check(proc.returncode == 0, f"{name}: exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"):
        return proc, None
    with open(path) as f:
        return proc, json.load(f)[0]


def cpu_set(text):
    """ "0-2,5" -> {0, 1, 2, 5}"""
    cpus = set()
    for part in text.split(","):
        if part:
            lo, _, hi = part.partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def seen_cpus(stdout):
    """thread index -> (tid, set of CPUs its worker ran on), from the fork's PINCHECK lines."""
    seen = {}
    for m in re.finditer(r"PINCHECK thread=(\d+) tid=(\d+) cpus=([\d,]*)", stdout):
        seen[int(m.group(1))] = (int(m.group(2)), cpu_set(m.group(3)))
    return seen


def check_pinning(name, proc, rec, threads, mode):
    pin = rec["cmh"]["pinning"]
    check(pin["mode"] == mode, f"{name}: mode {pin}")
    forks = pin.get("forks", [])
    if not check(len(forks) == 1, f"{name}: {len(forks)} forks in cmh.pinning: {pin}"):
        return []
    fork = forks[0]
    check(fork["allowedCpus"] != "", f"{name}: no allowedCpus: {fork}")
    recorded = {t["thread"]: t["cpu"] for t in fork["threads"]}
    check(sorted(recorded) == list(range(threads)), f"{name}: threads in cmh.pinning: {fork['threads']}")
    check(len(set(recorded.values())) == threads, f"{name}: two workers on one CPU: {recorded}")
    for t in fork["threads"]:
        check(t["cpu"] in allowed, f"{name}: CPU {t['cpu']} is not in this process's mask {allowed}")
        check(isinstance(t["core"], int) and isinstance(t["node"], int), f"{name}: core/node not numbers: {t}")
    seen = seen_cpus(proc.stdout)
    check(sorted(seen) == sorted(recorded), f"{name}: PINCHECK lines for threads {sorted(seen)}:\n{proc.stdout[-2000:]}")
    for thread, (_, cpus) in seen.items():
        check(cpus == {recorded.get(thread)},
              f"{name}: thread {thread} ran on CPUs {sorted(cpus)}, cmh.pinning says {recorded.get(thread)}")
    # The control thread, and every other thread of the process (the output flusher, the
    # allocator's purge thread), avoid the workers' CPUs when the mask leaves any.
    control = cpu_set(fork["controlCpus"])
    workers = set(recorded.values())
    if len(allowed) > threads:
        check(not control & workers, f"{name}: control thread on a worker's CPU: {fork}")
        worker_tids = {tid for tid, _ in seen.values()}
        tasks = [(int(m.group(1)), cpu_set(m.group(2))) for m in re.finditer(r"TASK tid=(\d+) cpus=([\d,-]+)", proc.stdout)]
        check(len(tasks) > threads, f"{name}: no TASK lines:\n{proc.stdout[-2000:]}")
        for tid, cpus in tasks:
            if tid not in worker_tids:
                check(not cpus & workers, f"{name}: thread {tid} may run on {sorted(cpus)}, a worker's CPU ({sorted(workers)})")
    else:
        check(any("shares the workers' CPUs" in n for n in fork.get("notes", [])), f"{name}: no note: {fork}")
    check("# Fork pinning: thread 0 on CPU" in proc.stdout or "# Pinning: thread 0 on CPU" in proc.stdout,
          f"{name}: no pinning line in the report")
    return recorded


proc, rec = pinned_run("cpus", ["-t", "2", "-pin", "cpus"])
if rec:
    check_pinning("-t 2 -pin cpus", proc, rec, 2, "cpus")
    check("# Threads: 2 threads, pinned (-pin cpus)" in proc.stdout, "header lacks the pinning")
    check("not pinned" not in proc.stdout, "a not-pinned warning in a pinned run")
    check(rec["cmh"]["environment"].get("tuned") in ("yes", "no"), f"cmh.environment: {rec['cmh']['environment']}")
    check("governor" in rec["cmh"]["environment"], f"cmh.environment: {rec['cmh']['environment']}")

# One worker: on a machine with 2 CPUs or more every other thread has a CPU of its own to go to.
proc, rec = pinned_run("one", ["-t", "1", "-pin", "cores"])
if rec:
    check_pinning("-t 1 -pin cores", proc, rec, 1, "cores")

# An explicit list, in the order given: thread 0 on the last allowed CPU, thread 1 on the first.
listed = f"{allowed[-1]},{allowed[0]}"
proc, rec = pinned_run("list", ["-t", "2", "-pin", listed])
if rec:
    recorded = check_pinning(f"-pin {listed}", proc, rec, 2, listed)
    check(recorded == {0: allowed[-1], 1: allowed[0]}, f"-pin {listed}: {recorded}")

# In the host process (-f 0) too.
proc, rec = pinned_run("inprocess", ["-t", "2", "-pin", "cpus", "-f", "0"])
if rec:
    check_pinning("-f 0 -pin cpus", proc, rec, 2, "cpus")

# Unpinned: no placement recorded, and the reason -strict would refuse for is a warning, once.
proc, rec = pinned_run("none", ["-t", "2"])
if rec:
    check(rec["cmh"]["pinning"] == {"mode": "none"}, f"unpinned: {rec['cmh']['pinning']}")
    check(proc.stdout.count("The worker threads are not pinned (-pin none)") == 1,
          f"unpinned: the warning is not there once:\n{proc.stdout[:3000]}")

# More workers than CPUs: the benchmark fails with one line, nothing overlaps.
too_many = len(allowed) + 1
proc = run(args.bench, ["Pin.where", "-t", str(too_many), "-pin", "cpus"], timeout=120)
check(proc.returncode == 2, f"-t {too_many} -pin cpus: exit {proc.returncode}")
check(f"-pin cpus: {too_many} worker threads, but this process may run on only {len(allowed)} CPUs"
      in proc.stdout + proc.stderr, f"-t {too_many} -pin cpus: no error line:\n{proc.stdout[-2000:]}")
outside = max(allowed) + 1
proc = run(args.bench, ["Pin.where", "-pin", str(outside)], timeout=120)
check(proc.returncode == 2 and f"CPU {outside} is not one this process may run on" in proc.stdout + proc.stderr,
      f"-pin {outside}: exit {proc.returncode}\n{proc.stdout[-2000:]}")
proc = run(args.bench, ["Pin.where", "-pin", "everywhere"], timeout=60)
check(proc.returncode == 1 and "Option -pin" in proc.stderr and "is not none, cpus, cores or a CPU list" in proc.stderr,
      f"-pin everywhere: exit {proc.returncode}: {proc.stderr}")

# -strict: refuses before anything runs or any file is written, one line per reason.
out_file = os.path.join(work, "strict.json")
proc = run(args.bench, ["Pin.where", "-strict", "-rf", "json", "-rff", out_file], timeout=60)
reasons = [line for line in proc.stderr.splitlines() if line.startswith("-strict: ")]
check(proc.returncode == 1, f"-strict unpinned: exit {proc.returncode}")
check(any("not pinned" in r for r in reasons), f"-strict: no pinning reason: {proc.stderr}")
check(len(reasons) == len(proc.stderr.splitlines()), f"-strict: stray lines: {proc.stderr}")
check(not os.path.exists(out_file) and "PINCHECK" not in proc.stdout, "-strict ran something")
done()

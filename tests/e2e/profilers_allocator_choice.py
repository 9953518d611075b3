"""-XX:Allocator (the allocator chosen per fork), run on the real executable: under glibc
(and jemalloc, tcmalloc, mimalloc where installed) -prof alloc still counts exactly 4000 B/op
and 1 alloc/op for std::vector<int>(1000), gc.* is omitted with a note, the header names the
allocator and NUMA says why it is off; a failed preload fails the fork; command-line errors
are one line and exit 1."""
import json
import os
import tempfile

import cmhtest as t
from profilers_common import QUICK, close, executables, rows_of, run_quick, value

opts = executables()
tmp = tempfile.mkdtemp()
LIBDIR = "/usr/lib/x86_64-linux-gnu"
EXACT = 1e-9  # "exactly": the counts are integers, printed to three decimals
PEERS = {"jemalloc": "libjemalloc.so.2", "tcmalloc": "libtcmalloc.so.4", "mimalloc": "libmimalloc.so.2"}


def vector_run(allocator, threads="1", json_path=None):
    args = ["Alloc.vector_1000", "-t", threads, "-prof", "alloc", "-forkArgsAppend", f"-XX:Allocator={allocator}"]
    extra = ["-rf", "json", "-rff", json_path] if json_path else []
    proc, rows = run_quick(opts.profiled, args, extra)
    norm = value(rows, "Alloc.vector_1000:alloc.rate.norm", proc)
    count = value(rows, "Alloc.vector_1000:alloc.count.norm", proc)
    print(f"{allocator} -t {threads}: alloc.rate.norm = {norm} B/op, alloc.count.norm = {count} allocs/op")
    t.check(close(norm, 4000.0, EXACT), f"{allocator} -t {threads}: alloc.rate.norm = {norm}, expected exactly 4000 B/op")
    t.check(close(count, 1.0, EXACT), f"{allocator} -t {threads}: alloc.count.norm = {count}, expected 1 alloc/op")
    t.check("Alloc.vector_1000:gc.count" not in rows and "Alloc.vector_1000:gc.time" not in rows,
            f"{allocator}: gc.count/gc.time reported under a foreign allocator (fake zeros)\n{proc.stdout[-2000:]}")
    return proc, rows


# The done-when: glibc, one thread and two.
for threads in ("1", "2"):
    path = os.path.join(tmp, f"glibc_{threads}.json")
    proc, rows = vector_run("glibc", threads, path)
    t.check("-XX:Allocator=glibc (" in proc.stdout and "libc.so" in proc.stdout,
            f"the header does not name glibc and its library\n{proc.stdout[:3000]}")
    t.check("gc.count and gc.time omitted" in proc.stdout, f"no note on the omitted gc.*\n{proc.stdout[-3000:]}")
    t.check("which places memory itself" in proc.stdout, f"# Fork NUMA: does not say why NUMA is off\n{proc.stdout[:3000]}")
    try:
        with open(path) as f:
            data = json.load(f)
        entry = data[0]
        raw = [v for fork in entry["secondaryMetrics"]["alloc.rate.norm"]["rawData"] for v in fork]
        t.check(raw == [4000.0, 4000.0, 4000.0], f"per-iteration alloc.rate.norm {raw}, expected 3 x 4000")
        t.check("gc.count" not in entry["secondaryMetrics"], "JSON: gc.count under glibc")
        t.check("-XX:Allocator=glibc" in json.dumps(entry), "JSON: the allocator is not named")
    except (OSError, ValueError, KeyError, IndexError) as e:
        t.fail(f"{path}: {e}")

# The default run still reports gc.* (the bundled heap).
proc, rows = run_quick(opts.profiled, ["Alloc.vector_1000", "-prof", "alloc"])
t.check("Alloc.vector_1000:gc.count" in rows, "the default run lost gc.count")
t.check(close(value(rows, "Alloc.vector_1000:alloc.rate.norm", proc), 4000.0, EXACT), "default run: not 4000 B/op")

# Frees made by another thread, and a thread that exits: the same counts on cmh and glibc.
counts = {}
for allocator in ("cmh", "glibc"):
    proc, rows = run_quick(opts.profiled, ["Gc.remote_free", "-prof", "alloc", "-forkArgsAppend", f"-XX:Allocator={allocator}"])
    counts[allocator] = (value(rows, "Gc.remote_free:alloc.rate.norm", proc), value(rows, "Gc.remote_free:alloc.count.norm", proc))
print(f"Gc.remote_free (B/op, allocs/op): {counts}")
t.check(counts["cmh"] == counts["glibc"], f"Gc.remote_free counts differ between cmh and glibc: {counts}")

# The peers, where installed: malloc must come from their library.
for name, lib in PEERS.items():
    if not os.path.exists(os.path.join(LIBDIR, lib)):
        print(f"SKIP {name}: {lib} is not installed")
        continue
    proc, rows = vector_run(name)
    t.check(f"-XX:Allocator={name} (" in proc.stdout and lib.split(".so")[0] in proc.stdout,
            f"{name}: the header does not name {lib}\n{proc.stdout[:3000]}")

# A library that is not an allocator: malloc still comes from libc, the fork fails with one line.
bogus = os.path.join(tmp, "libbogus.so")
with open(bogus, "wb") as f:
    f.write(b"not an ELF file")
proc = t.run(opts.profiled, QUICK + ["Alloc.vector_1000", "-forkArgsAppend", f"-XX:Allocator={bogus}"], timeout=200)
t.check(proc.returncode != 0 and "the preload failed" in proc.stdout + proc.stderr,
        f"a failed preload did not fail the fork (exit {proc.returncode})\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")

# Command-line errors: one line, exit 1, before any fork.
errors = [
    (["-XX:Allocator=glibc", "-Xmx64m"], "configures cmh's bundled allocator"),
    (["-XX:Allocator=ptmalloc"], "unknown allocator 'ptmalloc'"),
    (["-XX:Allocator=/nonexistent/lib.so"], "does not exist"),
    (["-XX:Allocator=/tmp"], "is not a regular file"),
]
for fork_args, needle in errors:
    proc = t.run(opts.profiled, QUICK + ["Alloc.vector_1000", "-forkArgsAppend", " ".join(fork_args)], timeout=60)
    lines = [l for l in proc.stderr.splitlines() if l.strip()]
    t.check(proc.returncode == 1 and any(needle in l for l in lines) and "# Fork" not in proc.stdout,
            f"{fork_args}: exit {proc.returncode}, expected 1 and one line with '{needle}'\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}")

# An executable without the bundled allocator refuses the choice.
proc = t.run(opts.noalloc, QUICK + ["Alloc.vector_1000", "-forkArgsAppend", "-XX:Allocator=glibc"], timeout=60)
t.check(proc.returncode == 1 and "without cmh's bundled allocator" in proc.stderr,
        f"NO_ALLOCATOR: exit {proc.returncode}\n{proc.stderr[-1500:]}")

t.done()

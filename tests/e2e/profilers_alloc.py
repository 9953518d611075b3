"""-prof alloc on purpose-built benchmarks, forked: std::vector<int>(1000) is exactly
4000 B/op and 1 alloc/op (one thread and two, ramp-up and ramp-down calls included in
the op count), an allocation-free benchmark exactly 0 B/op, frees made by another
thread show up as collections, alloc=false and several profilers at once."""
import json
import os
import tempfile

import cmhtest as t
from profilers_common import close, executables, run_quick, value

opts = executables()


def run(args, json_path=None):
    return run_quick(opts.profiled, args, ["-rf", "json", "-rff", json_path] if json_path else [])



def json_raw(path, bench, metric):
    """Every per-iteration value of a secondary metric in the JMH JSON file, or None."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        t.fail(f"{path}: cannot read the JSON result file: {e}")
        return None
    for entry in data:
        if entry.get("benchmark", "").endswith(bench):
            m = entry.get("secondaryMetrics", {}).get(metric)
            if t.check(m is not None, f"{path}: {bench} has no secondary metric {metric}"):
                return [v for fork in m["rawData"] for v in fork]
    t.fail(f"{path}: no entry for {bench}")
    return None


tmp = tempfile.mkdtemp()

# Exactly 4000 B/op and 1 alloc/op, single- and multi-threaded.
for threads in ("1", "2"):
    path = os.path.join(tmp, f"vector_{threads}.json")
    proc, rows = run(["Alloc.vector_1000", "-t", threads, "-prof", "alloc"], path)
    norm = value(rows, "Alloc.vector_1000:alloc.rate.norm", proc)
    count = value(rows, "Alloc.vector_1000:alloc.count.norm", proc)
    print(f"-t {threads}: Alloc.vector_1000 alloc.rate.norm = {norm} B/op, alloc.count.norm = {count} allocs/op")
    t.check(close(norm, 4000.0), f"-t {threads}: alloc.rate.norm = {norm}, expected 4000 B/op")
    t.check(close(count, 1.0), f"-t {threads}: alloc.count.norm = {count}, expected 1 alloc/op")
    raw = json_raw(path, "Alloc.vector_1000", "alloc.rate.norm")
    if raw is not None:
        print(f"-t {threads}: per-iteration alloc.rate.norm in the JSON file: {raw}")
        t.check(len(raw) == 3 and all(close(v, 4000.0) for v in raw),
                f"-t {threads}: per-iteration alloc.rate.norm {raw}, expected 3 x 4000")

# The live view sees the same bytes here: the allocating thread is the live worker.
proc, rows = run(["Alloc.vector_1000", "-prof", "alloc:threads=live"])
live = value(rows, "Alloc.vector_1000:alloc.rate.norm", proc)
t.check(close(live, 4000.0), f"threads=live: alloc.rate.norm = {live}, expected 4000 B/op")

# An allocation-free benchmark: exactly 0 B/op, shown (not left out as JMH does), and
# no collection during its iterations.
path = os.path.join(tmp, "nothing.json")
proc, rows = run(["Alloc.nothing", "-prof", "alloc"], path)
zero = value(rows, "Alloc.nothing:alloc.rate.norm", proc)
print(f"Alloc.nothing: alloc.rate.norm = {zero} B/op")
t.check(zero == 0.0, f"Alloc.nothing: alloc.rate.norm = {zero}, expected exactly 0 B/op")
t.check(value(rows, "Alloc.nothing:alloc.count.norm", proc) == 0.0, "Alloc.nothing: allocations counted")
t.check(value(rows, "Alloc.nothing:gc.count", proc) == 0.0, "Alloc.nothing: gc.count is not 0")
raw = json_raw(path, "Alloc.nothing", "alloc.rate.norm")
if raw is not None:
    t.check(raw == [0.0, 0.0, 0.0], f"Alloc.nothing: per-iteration alloc.rate.norm {raw}, expected 3 x 0")

# Frees from another thread: the allocator reclaims them in collections.
proc, rows = run(["Gc.remote_free", "-prof", "alloc"])
count = value(rows, "Gc.remote_free:gc.count", proc)
time_ms = value(rows, "Gc.remote_free:gc.time", proc)
print(f"Gc.remote_free: gc.count = {count} counts, gc.time = {time_ms} ms (summed over 3 iterations)")
t.check(count is not None and count > 0, f"Gc.remote_free: gc.count = {count}, expected > 0")
t.check(time_ms is not None and time_ms > 0, f"Gc.remote_free: gc.time = {time_ms}, expected > 0")

# alloc=false: only the collections.
proc, rows = run(["Alloc.vector_1000", "-prof", "alloc:alloc=false"])
names = {n.split(":", 1)[1] for n in rows if ":" in n}
t.check(names == {"gc.count", "gc.time"}, f"alloc=false: secondary rows {sorted(names)}")

# Several profilers at once, alloc innermost (last): still exact.
proc, rows = run(["Alloc.vector_1000", "-prof", "rusage", "-prof", "opcount", "-prof", "alloc"])
t.check(close(value(rows, "Alloc.vector_1000:alloc.rate.norm", proc), 4000.0), "with 3 profilers: not 4000 B/op")
t.check("Alloc.vector_1000:rusage.minflt.norm" in rows, "with 3 profilers: no rusage row")
ops = value(rows, "Alloc.vector_1000:opcount.all_ops", proc)
t.check(ops is not None and ops > 0, f"with 3 profilers: user profiler opcount.all_ops = {ops}")

t.done()

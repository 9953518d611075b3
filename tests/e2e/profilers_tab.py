"""TAB from the JMH PR, forked, with -prof alloc: both benchmarks allocate ~1 MB per op,
and cmh counts the bytes of the short-lived threads in TAB.separate too (the bug JMH
fixed with JDK 21's getTotalThreadAllocatedBytes). threads=live reproduces the old
blind spot. All five metrics reach the per-iteration lines and the summary table."""
import cmhtest as t
from profilers_common import rows_of

ARGS = ["TAB", "-f", "1", "-wi", "1", "-i", "3", "-w", "100ms", "-r", "200ms"]
METRICS = {"alloc.rate": "MB/sec", "alloc.rate.norm": "B/op", "alloc.count.norm": "allocs/op",
           "gc.count": "counts", "gc.time": "ms"}


proc = t.run(t.SAMPLES, ARGS + ["-prof", "alloc"], timeout=300, check_exit=0)
rows = rows_of(proc)
for bench in ("TAB.inline", "TAB.separate"):
    for metric, unit in METRICS.items():
        row = rows.get(f"{bench}:{metric}")
        if t.check(row is not None, f"no summary row {bench}:{metric}\n{proc.stdout[-3000:]}"):
            t.check(row["Units"] == unit, f"{bench}:{metric} unit {row['Units']}, expected {unit}")
            t.check(row["Cnt"] == "3", f"{bench}:{metric} Cnt {row['Cnt']}, expected 3")
    norm = rows.get(f"{bench}:alloc.rate.norm")
    if norm:
        value = t.score(norm["Score"])
        print(f"{bench}: alloc.rate.norm = {value} B/op (threads=all)")
        t.check(1_000_000 <= value <= 1_010_000, f"{bench}:alloc.rate.norm = {value}, expected 1e6..1.01e6")
        t.check(norm["Error"] is not None, f"{bench}:alloc.rate.norm has no error bound")
    rate = rows.get(f"{bench}:alloc.rate")
    if rate:
        t.check(t.score(rate["Score"]) > 0, f"{bench}:alloc.rate is not positive")
        t.check(rate["Error"] is not None, f"{bench}:alloc.rate has no error bound")

# Under each measurement iteration: one line per metric (2 benchmarks x 3 iterations).
for metric in METRICS:
    n = sum(1 for line in proc.stdout.splitlines() if line.strip().startswith(metric + ":"))
    t.check(n == 6, f"{n} per-iteration '{metric}:' lines, expected 6")

# threads=live: the transient threads are gone when the iteration ends, so their
# megabytes vanish; the worker thread of TAB.inline is alive and still counted.
proc = t.run(t.SAMPLES, ARGS + ["-prof", "alloc:threads=live"], timeout=300, check_exit=0)
rows = rows_of(proc)
separate = rows.get("TAB.separate:alloc.rate.norm")
inline = rows.get("TAB.inline:alloc.rate.norm")
if t.check(separate is not None and inline is not None, f"threads=live: rows missing\n{proc.stdout[-3000:]}"):
    s, i = t.score(separate["Score"]), t.score(inline["Score"])
    print(f"threads=live: TAB.separate = {s} B/op, TAB.inline = {i} B/op")
    t.check(s < 100_000, f"threads=live: TAB.separate = {s} B/op, expected far below 1e6 (< 100,000)")
    t.check(1_000_000 <= i <= 1_010_000, f"threads=live: TAB.inline = {i} B/op, expected 1e6..1.01e6")
t.check("TAB.separate:alloc.count.norm" not in rows, "threads=live reports alloc.count.norm")

t.done()

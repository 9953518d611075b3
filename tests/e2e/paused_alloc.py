"""-prof alloc and allocations made while the timing is paused. Each op allocates
1000 bytes outside its timing (a Google Benchmark suite's PauseTiming()..ResumeTiming(),
a JMH-style benchmark's setup_invocation) and 1024 bytes timed: -prof alloc reports
exactly 1024 B/op and 1 allocation per op, and alloc.paused.norm 1000 B/op; with
paused=include exactly 2024 B/op and 2. The JSON's notes say which rule applied. So
with two threads pausing at their own times. The same work done unpaused is 2024 B/op
either way, with no alloc.paused.norm."""
import json
import os
import sys
import tempfile

import cmhtest as t

native, gbench = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp()
SHORT = ["-f", "1", "-wi", "1", "-i", "2", "-w", "30ms", "-r", "60ms"]


def records(exe, args):
    path = os.path.join(tmp, "r.json")
    t.run(exe, args + SHORT + ["-rf", "json", "-rff", path], timeout=200, check_exit=0)
    with open(path) as f:
        return {r["benchmark"]: r for r in json.load(f)}


def check_run(what, record, prefix, bytes_per_op, allocs_per_op, paused_bytes, rule):
    m = record["secondaryMetrics"]
    norm = m.get(prefix + "alloc.rate.norm", {})
    t.check(norm.get("rawData") and all(v == bytes_per_op for fork in norm["rawData"] for v in fork),
            f"{what}: {prefix}alloc.rate.norm per iteration {norm.get('rawData')}, expected exactly {bytes_per_op}")
    count = m.get(prefix + "alloc.count.norm", {})
    t.check(count.get("rawData") and all(v == allocs_per_op for fork in count["rawData"] for v in fork),
            f"{what}: {prefix}alloc.count.norm {count.get('rawData')}, expected exactly {allocs_per_op}")
    paused = m.get(prefix + "alloc.paused.norm")
    notes = record["cmh"].get("notes", {})
    if paused_bytes is None:
        t.check(paused is None, f"{what}: alloc.paused.norm {paused} where nothing was paused")
        t.check(prefix + "alloc.rate.norm" not in notes, f"{what}: a note where nothing was paused: {notes}")
        return
    if t.check(paused is not None, f"{what}: no {prefix}alloc.paused.norm ({sorted(m)})"):
        t.check(all(v == paused_bytes for fork in paused["rawData"] for v in fork),
                f"{what}: alloc.paused.norm {paused['rawData']}, expected exactly {paused_bytes}")
    t.check(rule in notes.get(prefix + "alloc.rate.norm", ""),
            f"{what}: the JSON does not say '{rule}': {notes}")


for exe, bench in [(gbench, "BM_paused_input"), (native, "Paused.invocation")]:
    r = records(exe, [bench + "$", "-prof", "alloc"])[bench]
    check_run(bench, r, "", 1024.0, 1.0, 1000.0, "excludes what was allocated while the timing was paused")
    r = records(exe, [bench + "$", "-prof", "alloc:paused=include"])[bench]
    check_run(bench + " paused=include", r, "", 2024.0, 2.0, 1000.0, "includes what was allocated while the timing")
    r = records(exe, [bench + "$", "-prof", "gc"])[bench]
    check_run(bench + " -prof gc", r, "gc.", 1024.0, 1.0, 1000.0, "excludes")

# Two threads: another thread's timed allocations are never taken for this one's paused ones.
r = records(gbench, ["BM_paused_input/threads:2", "-prof", "alloc"])["BM_paused_input/threads:2"]
check_run("BM_paused_input/threads:2", r, "", 1024.0, 1.0, 1000.0, "excludes")

r = records(gbench, ["BM_timed_input", "-prof", "alloc"])["BM_timed_input"]
check_run("BM_timed_input", r, "", 2024.0, 2.0, None, "")

proc = t.run(native, ["-prof", "alloc:paused=sometimes"], check_exit=1)
t.check("paused" in proc.stderr, f"a bad paused= value is not a clear error: {proc.stderr}")
help_text = t.run(native, ["-prof", "alloc:help"], check_exit=0).stdout
t.check("paused=exclude|include" in help_text, "-prof alloc:help does not document paused=\n" + help_text)

t.done()

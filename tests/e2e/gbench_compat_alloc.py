"""-prof alloc on a Google Benchmark suite counts exactly as for native cmh
benchmarks: std::vector<int>(1000) per pass is exactly 4000 B/op and 1
allocation per op, although the function allocates 1 MB before its loop and
sets counters and a label after it; an allocation-free loop is 0 B/op. And the
fork arguments reach the bundled allocator: -Xmx32m makes a 512 MiB pass fail
as out of memory."""
import json
import os
import tempfile

import cmhtest as t
from gbench_common import programs

cmh, _ = programs()["allocation"]
path = os.path.join(tempfile.mkdtemp(), "alloc.json")
t.run(cmh, ["BM_vector1000|BM_no_allocation", "-f", "2", "-prof", "alloc", "-rf", "json", "-rff", path,
            "-wi", "1", "-i", "2", "-w", "50ms", "-r", "50ms"], timeout=200, check_exit=0)
with open(path) as f:
    records = {r["benchmark"]: r for r in json.load(f)}
vec = records["BM_vector1000"]["secondaryMetrics"]
t.check(vec["alloc.rate.norm"]["score"] == 4000.0, f"BM_vector1000: {vec['alloc.rate.norm']['score']} B/op, expected 4000")
t.check(vec["alloc.count.norm"]["score"] == 1.0, f"BM_vector1000: {vec['alloc.count.norm']['score']} allocs/op, expected 1")
t.check(len(vec["alloc.rate.norm"]["rawData"]) == 2, "expected two forks of raw data")
none = records["BM_no_allocation"]["secondaryMetrics"]
t.check(none["alloc.rate.norm"]["score"] == 0.0, f"BM_no_allocation: {none['alloc.rate.norm']['score']} B/op, expected 0")

proc = t.run(cmh, ["BM_large", "-f", "1", "-jvmArgs", "-Xmx32m"], timeout=120, check_exit=2)
rows = {r["Benchmark"]: r for r in t.summary_rows(proc.stdout)}
t.check(rows.get("BM_large/iterations:1", {}).get("Score") == "FAILED", "BM_large is not FAILED under -Xmx32m\n" +
        proc.stdout[-3000:])
t.check("heap limit" in proc.stdout + proc.stderr, "the allocator's heap-limit message is not shown\n" +
        (proc.stdout + proc.stderr)[-3000:])

t.done()

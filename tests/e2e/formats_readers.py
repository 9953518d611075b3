"""Result files read by code cmh did not write: github-action-benchmark's jmh and
googlecpp input parsing (reimplemented in gab_extract.py from its published source)
on real runs in every mode, with -prof gc; and -prof gc's JSON carrying JMH's metric
names (gc.alloc.rate, gc.alloc.rate.norm, gc.count, gc.time) where -prof alloc keeps
cmh's (alloc.rate.norm ...). Sample mode writes per-iteration percentiles in rawData,
and a single-shot run with -r writes that time."""
import json
import os
import sys
import tempfile

from cmhtest import run, check
from compare_common import parse_args
from gab_extract import extract_jmh, extract_googlecpp, problems, ExtractError
import cmhtest

args = parse_args()
tmp = tempfile.mkdtemp(prefix="cmh-readers-")
QUICK = ["-f", "1", "-wi", "1", "-i", "3", "-w", "50ms", "-r", "100ms"]


def bench(name, extra_args):
    path = os.path.join(tmp, name + ".json")
    run(args.bench, extra_args + ["-rf", "json,gbench", "-rff", path], timeout=120, check_exit=0)
    return path, path[:-len(".json")] + ".gbench.json"


runs = {
    "gc": bench("gc", ["Compare", "-bm", "avgt,thrpt"] + QUICK + ["-prof", "gc"]),
    "alloc": bench("alloc", ["Compare.half"] + QUICK + ["-prof", "alloc"]),
    "sample": bench("sample", ["Compare.half", "-bm", "sample"] + QUICK),
    "ss": bench("ss", ["Compare.half", "-bm", "ss", "-f", "1", "-wi", "1", "-i", "3", "-r", "100ms"]),
}

for what, (jmh_path, gbench_path) in runs.items():
    for reader, path in ((extract_jmh, jmh_path), (extract_googlecpp, gbench_path)):
        try:
            entries = reader(open(path, encoding="utf-8").read())
        except ExtractError as e:
            check(False, f"{what}: {reader.__name__} on {os.path.basename(path)}: {e}")
            continue
        bad = problems(entries)
        check(not bad, f"{what}: {reader.__name__} on {os.path.basename(path)}: " + "; ".join(bad))
        print(f"{what}: {reader.__name__}: {len(entries)} entries, e.g. {entries[0]['name']} = "
              f"{entries[0]['value']} {entries[0]['unit']}")

# -prof gc: exactly JMH's names; -prof alloc: cmh's.
def secondaries(path):
    return {k for rec in json.load(open(path, encoding="utf-8")) for k in rec["secondaryMetrics"]}


gc_names = secondaries(runs["gc"][0])
check({"gc.alloc.rate", "gc.alloc.rate.norm", "gc.count", "gc.time"} <= gc_names, f"-prof gc: {sorted(gc_names)}")
check(not any(n.startswith("alloc.") for n in gc_names), f"-prof gc has cmh spellings: {sorted(gc_names)}")
alloc_names = secondaries(runs["alloc"][0])
check({"alloc.rate", "alloc.rate.norm", "alloc.count.norm", "gc.count", "gc.time"} <= alloc_names,
      f"-prof alloc: {sorted(alloc_names)}")

# Sample mode: p-secondaries hold one value per iteration (3), the histogram lower bounds.
rec = json.load(open(runs["sample"][0], encoding="utf-8"))[0]
p50 = rec["secondaryMetrics"].get("p0.50", {})
check(len(p50.get("rawData", [[]])[0]) == 3, f"sample: p0.50 rawData is not per iteration: {p50.get('rawData')}")
hist = rec["primaryMetric"]["rawDataHistogram"]
check(len(hist) == 1 and len(hist[0]) == 3, "sample: rawDataHistogram is not 1 fork x 3 iterations")

# Single shot with -r: that time, as JMH; the warmup time was not set: "single-shot".
rec = json.load(open(runs["ss"][0], encoding="utf-8"))[0]
check(rec["measurementTime"] == "100 ms" and rec["warmupTime"] == "single-shot",
      f"ss: measurementTime {rec['measurementTime']!r}, warmupTime {rec['warmupTime']!r}")

sys.exit(1 if cmhtest._failures else 0)

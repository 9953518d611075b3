"""-shard and cmh-history together: a samples run split three ways (by -shard and by
CMH_SHARD_INDEX/CMH_TOTAL_SHARDS) gives disjoint parts whose union is the unsharded
run's set of benchmark points, and the three parts added as one run make the same
history as the unsharded run (the same series, one run each, at the same commit).
cmh-compare takes the parts as one side."""
import json
import os
import tempfile

from cmhtest import run, check, done, SAMPLES
from history_common import parse_args

args = parse_args()
tmp = tempfile.mkdtemp(prefix="cmh-history-shards-")
H = args.history
# Benchmarks with parameters and several modes, so that the parts are cut below the benchmark.
SELECT = ["Params.sum", "Loops.loop_1", "Reserve", "-bm", "avgt,thrpt", "-f", "1", "-wi", "0", "-i", "2",
          "-w", "10ms", "-r", "10ms"]


def points(path):
    doc = json.load(open(path, encoding="utf-8"))
    return [(r["benchmark"], r["mode"], json.dumps(r.get("params", {}), sort_keys=True)) for r in doc]


whole = os.path.join(tmp, "whole.json")
run(SAMPLES, SELECT + ["-rf", "json", "-rff", whole], timeout=240, check_exit=0)
everything = points(whole)
check(len(everything) >= 8, f"the unsharded run: {len(everything)} points")
parts, union = [], []
for i in range(3):
    path = os.path.join(tmp, f"shard-{i}.json")
    proc = run(SAMPLES, SELECT + ["-shard", f"{i}/3", "-rf", "json", "-rff", path], timeout=240, check_exit=0)
    check(f"Shard {i}/3:" in proc.stderr, f"-shard {i}/3 says which part it runs: {proc.stderr[-300:]!r}")
    parts.append(path)
    mine = points(path)
    check(len(mine) > 0, f"shard {i}/3 is empty")
    union += mine
check(sorted(union) == sorted(everything), f"the parts' union is not the unsharded set:\n{sorted(union)}\n{sorted(everything)}")
check(len(set(union)) == len(union), "a point ran in two parts")

# The environment variables select the same part as -shard.
via_env = os.path.join(tmp, "env-1.json")
run(SAMPLES, SELECT + ["-rf", "json", "-rff", via_env], env={"CMH_SHARD_INDEX": "1", "CMH_TOTAL_SHARDS": "3"},
    timeout=240, check_exit=0)
check(sorted(points(via_env)) == sorted(points(parts[1])), "CMH_SHARD_INDEX=1 CMH_TOTAL_SHARDS=3 differs from -shard 1/3")
proc = run(SAMPLES, SELECT, env={"CMH_SHARD_INDEX": "1"}, check_exit=1)
check("CMH_TOTAL_SHARDS" in proc.stderr, f"one variable alone: {proc.stderr!r}")
proc = run(SAMPLES, SELECT + ["-shard", "3/3"], check_exit=1)
check("expected I/N" in proc.stderr, f"-shard 3/3: {proc.stderr!r}")

# One history from the parts, one from the whole: the same series, one run each.
sharded, single = os.path.join(tmp, "sharded.sqlite"), os.path.join(tmp, "single.sqlite")
out = run(H, ["add", "--db", sharded, "--commit", "abc123", "--time", "2026-04-01T10:00:00Z"] + parts, check_exit=0).stdout
check("3 file(s)" in out, f"add of three parts: {out!r}")
run(H, ["add", "--db", single, "--commit", "abc123", "--time", "2026-04-01T10:00:00Z", whole], check_exit=0)


def shape(db):
    doc = json.loads(run(H, ["series", "--db", db, "--metric", "all", "--json"], check_exit=0).stdout)
    return sorted((s["benchmark"], json.dumps(s["params"], sort_keys=True), s["mode"], s["metric"], s["environment"],
                   s["runs"], tuple(s["commits"])) for s in doc)


a, b = shape(sharded), shape(single)
check(len(a) >= len(everything), f"series of the sharded store: {len(a)}")
check(a == b, "the merged history differs from the single run's:\n" +
      "\n".join(str(x) for x in sorted(set(a) ^ set(b))[:10]))
runs = run(H, ["export", "--db", sharded, "--format", "bencher"], check_exit=0).stdout
check(len(json.loads(runs)) == len({(p[0], p[2], p[1]) for p in everything}),
      "export of the sharded run: one entry per benchmark point")

gab = json.loads(run(H, ["export", "--db", sharded, "--format", "github-action-benchmark"], check_exit=0).stdout)
check(isinstance(gab, list) and len(gab) >= len(everything), f"github-action-benchmark export: {len(gab)} entries")
for e in gab:
    check(isinstance(e.get("name"), str) and isinstance(e.get("value"), (int, float)) and e["value"] > 0
          and e.get("unit", "").endswith("/op"), f"github-action-benchmark entry (smaller is better, per op): {e}")
thrpt = [e for e in gab if " thrpt" in e["name"] and " " not in e["name"].split(" thrpt")[1]]
check(thrpt and all("throughput (as time per op)" in e["extra"] for e in thrpt),
      f"throughput exported as time per op: {thrpt[:2]}")

# cmh-compare with several files per side: the parts against the whole, every point matched.
if args.compare:
    proc = run(args.compare, ["--format", "json", "--base", whole, "--new"] + parts + ["--threshold", "score=off"],
               check_exit=0)
    doc = json.loads(proc.stdout)
    matched = sum(len(p["benchmarks"]) for p in doc["pairs"])
    check(matched == len(everything), f"cmh-compare --base whole --new parts: {matched} of {len(everything)} matched")
done()

"""Keeps the samples alive. For every samples/NN_name.cpp:
  - the file opens with the SPDX line and `// Sample NN, Group: <lesson>` followed by
    a paragraph that explains it, and its number is unique;
  - -l lists exactly the benchmarks the sources declare (none lost, none extra);
  - the group runs in a fork with tiny iterations, exits 0 and has a numeric score
    for every declared benchmark (mode and parameter rows as declared);
and the lessons that are exact facts rather than timings hold: what -prof alloc
shows for SmallString, StdFunction, Reserve, DeadCode and Profilers, the rows of
the group benchmarks and aux counters, and -prof numa's verdict in Numa."""
import glob
import os
import re

import cmhtest as t

SAMPLE_DIR = os.path.join(t.SOURCE, "samples")
BRIEF = ["-f", "1", "-wi", "1", "-i", "2", "-w", "30ms", "-r", "30ms"]
# Extra arguments for samples whose lesson needs a profiler.
EXTRA = {
    "DeadCode": ["-prof", "alloc"],
    "Profilers": ["-prof", "alloc"],
    "TAB": ["-prof", "alloc"],
    "SmallString": ["-prof", "alloc"],
    "StdFunction": ["-prof", "alloc"],
    "Reserve": ["-prof", "alloc"],
    "AllocatorChoice": ["-prof", "alloc"],
    "Numa": ["-prof", "numa"],
}
DECLARATION = re.compile(r"^CMH_(?:GROUP_)?BENCHMARK\((\w+),\s*(\w+)", re.M)


def read_sample(path):
    """(number, group, declared benchmark names) of one sample file, checking its header."""
    name = os.path.basename(path)
    text = open(path, encoding="utf-8").read()
    lines = text.splitlines()
    m = re.fullmatch(r"(\d\d)_[a-z0-9_]+\.cpp", name)
    t.check(m, f"{name}: sample files are named NN_snake_case.cpp")
    t.check(lines and lines[0] == "// SPDX-License-Identifier: MIT", f"{name}: does not open with the SPDX line")
    head = re.fullmatch(r"// Sample (\d\d), (\w+): (\S.+)", lines[1]) if len(lines) > 1 else None
    if not t.check(head, f"{name}: line 2 is not '// Sample NN, Group: lesson'"):
        return None
    t.check(m is not None and head.group(1) == m.group(1), f"{name}: the header's number is not the file's")
    t.check(len(lines) > 6 and all(l.startswith("//") for l in lines[2:6]),
            f"{name}: the lesson needs a paragraph of comment under the header")
    declared = sorted({f"{g}.{n}" for g, n in DECLARATION.findall(text)})
    groups = {d.split(".")[0] for d in declared}
    t.check(groups == {head.group(2)}, f"{name}: declares groups {sorted(groups)}, header names {head.group(2)}")
    return head.group(1), head.group(2), declared


def norm(rows, name, metric, at=None):
    """The score of secondary row name:metric, `at` mapping a parameter column's index
    to its value; None unless exactly one row matches."""
    found = [r for r in rows if r["Benchmark"] == f"{name}:{metric}" and all(
        r["params"][i] == v for i, v in (at or {}).items())]
    return t.score(found[0]["Score"]) if len(found) == 1 else None


def expect(rows, name, metric, value, group, at=None, tolerance=0.01):
    got = norm(rows, name, metric, at)
    t.check(got is not None and abs(got - value) <= tolerance * max(1.0, abs(value)),
            f"{group}: {name}:{metric}{'' if not at else ' at ' + str(at)} is {got}, the lesson says {value}")


samples = [s for s in (read_sample(p) for p in sorted(glob.glob(os.path.join(SAMPLE_DIR, "*.cpp")))) if s]
numbers = [n for n, _, _ in samples]
t.check(len(numbers) == len(set(numbers)), f"two samples share a number: {sorted(numbers)}")
t.check(len(samples) >= 20, f"only {len(samples)} samples found under {SAMPLE_DIR}")

declared_all = sorted(b for _, _, names in samples for b in names)
listed = t.run(t.SAMPLES, ["-l"], timeout=60, check_exit=0).stdout.splitlines()[1:]
t.check(listed == declared_all, f"-l and the sources disagree:\n  only listed: {sorted(set(listed) - set(declared_all))}"
        f"\n  only declared: {sorted(set(declared_all) - set(listed))}")

outputs = {}
for number, group, declared in samples:
    proc = t.run(t.SAMPLES, [f"^{group}\\."] + BRIEF + EXTRA.get(group, []), timeout=240)
    outputs[group] = proc
    if not t.check(proc.returncode == 0, f"sample {number} {group}: exit {proc.returncode}\n"
                   f"--- stdout ---\n{proc.stdout[-3000:]}\n--- stderr ---\n{proc.stderr[-3000:]}"):
        continue
    t.check("# Fork: 1 of 1" in proc.stdout, f"{group}: did not run in a fork")
    rows = t.summary_rows(proc.stdout)
    primary = [r for r in rows if ":" not in r["Benchmark"]]
    t.check(sorted({r["Benchmark"] for r in primary}) == declared,
            f"{group}: summary rows {sorted({r['Benchmark'] for r in primary})}, declared {declared}")
    for r in primary:
        ok = True
        try:
            t.score(r["Score"])
        except ValueError:
            ok = False
        t.check(ok, f"{group}: {r['Benchmark']} has no numeric score: {r}")
    print(f"sample {number} {group}: {len(primary)} rows")

# Lessons that are facts, not timings.
rows = {g: t.summary_rows(p.stdout) for g, p in outputs.items() if p.returncode == 0}
if "Modes" in rows:
    t.check(sorted(r["Mode"] for r in rows["Modes"] if r["Benchmark"] == "Modes.push_back") ==
            ["avgt", "sample", "ss", "thrpt"], "Modes: cmh::mode::all did not give the four modes")
if "Params" in rows:
    points = sorted(tuple(r["params"]) for r in rows["Params"] if r["Benchmark"] == "Params.sum")
    t.check(points == sorted((k, s) for k in ("vector", "deque", "list") for s in ("100", "100000")),
            f"Params: not the outer product of kind x size: {points}")
for group, members in (("Asymmetric", ("counter:get", "counter:inc")), ("Control", ("pingpong:ping", "pingpong:pong"))):
    if group in rows:
        names = {r["Benchmark"] for r in rows[group]}
        t.check(all(f"{group}.{m}" in names for m in members), f"{group}: member rows missing: {sorted(names)}")
if "AuxCounters" in rows:
    r = rows["AuxCounters"]
    units = {x["Benchmark"]: x["Units"] for x in r}
    t.check(units.get("AuxCounters.lookup:hits") == "ops/us" and units.get("AuxCounters.lookup:misses") == "ops/us",
            f"AuxCounters: ops counters not reported like the score: {units}")
    t.check(units.get("AuxCounters.lookup:evictions") == "#", f"AuxCounters: the event counter is not a count: {units}")
    total = t.score([x for x in r if x["Benchmark"] == "AuxCounters.lookup"][0]["Score"])
    hits, misses = norm(r, "AuxCounters.lookup", "hits"), norm(r, "AuxCounters.lookup", "misses")
    t.check(hits is not None and misses is not None and abs(hits + misses - total) <= 0.01 * total,
            f"AuxCounters: hits {hits} + misses {misses} are not every call ({total})")
if "SmallString" in rows:
    r = rows["SmallString"]
    for name in ("SmallString.construct", "SmallString.copy"):
        expect(r, name, "alloc.rate.norm", 0, "SmallString", at={0: "15"})
        expect(r, name, "alloc.rate.norm", 17, "SmallString", at={0: "16"})
        expect(r, name, "alloc.count.norm", 1, "SmallString", at={0: "16"})
        expect(r, name, "alloc.rate.norm", 101, "SmallString", at={0: "100"})
    for length in ("15", "16", "100"):
        expect(r, "SmallString.view", "alloc.rate.norm", 0, "SmallString", at={0: length})
if "StdFunction" in rows:
    r = rows["StdFunction"]
    expect(r, "StdFunction.small_capture", "alloc.rate.norm", 0, "StdFunction")
    expect(r, "StdFunction.large_capture", "alloc.rate.norm", 24, "StdFunction")
    expect(r, "StdFunction.large_capture", "alloc.count.norm", 1, "StdFunction")
    expect(r, "StdFunction.template_parameter", "alloc.rate.norm", 0, "StdFunction")
if "Reserve" in rows:
    r = rows["Reserve"]
    expect(r, "Reserve.growing", "alloc.count.norm", 11, "Reserve", at={0: "1000"})
    expect(r, "Reserve.growing", "alloc.rate.norm", 8188, "Reserve", at={0: "1000"})
    expect(r, "Reserve.reserved", "alloc.count.norm", 1, "Reserve", at={0: "1000"})
    expect(r, "Reserve.reserved", "alloc.rate.norm", 4000, "Reserve", at={0: "1000"})
if "AllocatorChoice" in rows:
    r = rows["AllocatorChoice"]
    names = ["AllocatorChoice.cmh", "AllocatorChoice.glibc", "AllocatorChoice.jemalloc"]
    for metric in ("alloc.rate.norm", "alloc.count.norm"):
        values = [norm(r, n, metric) for n in names]
        t.check(None not in values and len(set(values)) == 1,
                f"AllocatorChoice: {metric} differs between the allocators: {values}")
    labels = {x["Benchmark"] for x in r}
    t.check("AllocatorChoice.cmh:gc.count" in labels, "AllocatorChoice: no gc.count on cmh's row")
    t.check(not any(f"{n}:gc.count" in labels for n in names[1:]), "AllocatorChoice: gc.count under a foreign allocator")
if "DeadCode" in rows:
    r = rows["DeadCode"]
    expect(r, "DeadCode.consumed_allocation", "alloc.rate.norm", 8, "DeadCode")
    expect(r, "DeadCode.dropped_allocation", "alloc.rate.norm", 0, "DeadCode")
if "Profilers" in rows:
    r = rows["Profilers"]
    expect(r, "Profilers.vector", "alloc.rate.norm", 4000, "Profilers")
    expect(r, "Profilers.vector", "alloc.count.norm", 1, "Profilers")
    expect(r, "Profilers.sum", "alloc.rate.norm", 0, "Profilers")
if "Numa" in rows:
    out = outputs["Numa"].stdout + outputs["Numa"].stderr  # the fork's own lines may go to either
    for name in ("Numa.local", "Numa.interleaved"):
        t.check(norm(rows["Numa"], name, "numa.enabled") is not None, f"Numa: no numa.enabled row for {name}")
    t.check("# Fork options: --cpunodebind=0 --membind=0 -XX:+UseNUMA" in out,
            "Numa: Numa.local's fork arguments are not in its header")
    enabled = norm(rows["Numa"], "Numa.local", "numa.enabled")
    t.check(enabled == 1.0 or "NUMA support disabled: " in out,
            "Numa: NUMA mode is off for Numa.local and the fork did not say why")

t.done()

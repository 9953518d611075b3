"""rusage, perfnorm, perf and numa end to end, forked: their rows reach the summary
table with the documented labels and units; on a machine without a hardware PMU (this
VM) perfnorm reports the software events and says the hardware ones are not
supported; where perf_event_open is forbidden both say why and refuse to run; -XX:+AlwaysPreTouch takes the first-touch page faults of the heap out of
the measurement (rusage.minflt.norm from one per page to ~0)."""
import cmhtest as t
from profilers_common import executables, rows_of, run_quick

opts = executables()


def run(args):
    return run_quick(opts.profiled, args)


def expect_rows(rows, bench, units, proc):
    for label, unit in units.items():
        row = rows.get(f"{bench}:{label}")
        if t.check(row is not None, f"no row {bench}:{label}\n{proc.stdout[-2500:]}"):
            t.check(row["Units"] == unit, f"{bench}:{label} unit {row['Units']}, expected {unit}")


# rusage
proc, rows = run(["Alloc.nothing", "-prof", "rusage"])
expect_rows(rows, "Alloc.nothing", {
    "rusage.minflt.norm": "#/op", "rusage.majflt.norm": "#/op", "rusage.nvcsw.norm": "#/op",
    "rusage.nivcsw.norm": "#/op", "rusage.utime.norm": "ns/op", "rusage.stime.norm": "ns/op",
    "rusage.maxrss": "KiB"}, proc)

# perfnorm: software events always; hardware ones only where a PMU exists.
help_proc = t.run(opts.profiled, ["-prof", "perfnorm:help"])
no_pmu = "cycles                 hardware  not supported here" in help_proc.stdout + help_proc.stderr
proc, rows = run(["Alloc.nothing", "-prof", "perfnorm"])
expect_rows(rows, "Alloc.nothing", {"task-clock": "ns/op", "page-faults": "#/op",
                                    "context-switches": "#/op", "cpu-migrations": "#/op"}, proc)
clock = rows.get("Alloc.nothing:task-clock")
if clock:
    t.check(t.score(clock["Score"]) > 0, f"task-clock per op is {clock['Score']}")
if no_pmu:
    print("no hardware PMU here: checking that perfnorm says so and skips hardware events")
    t.check("Alloc.nothing:cycles" not in rows and "Alloc.nothing:CPI" not in rows,
            "perfnorm reports hardware events on a machine that cannot count them")
    lprof = t.run(opts.profiled, ["-lprof"], check_exit=0)
    t.check("hardware events not supported here" in lprof.stdout,
            f"-lprof does not say hardware events are unsupported:\n{lprof.stdout}")
    bad = t.run(opts.profiled, ["Alloc.nothing", "-prof", "perfnorm:events=cycles"], check_exit=1)
    t.check("not supported here" in bad.stdout + bad.stderr, "perfnorm:events=cycles: no clear reason")
else:
    expect_rows(rows, "Alloc.nothing", {"cycles": "#/op", "instructions": "#/op", "instructions:u": "#/op",
                                        "CPI": "clks/insn", "IPC": "insns/clk"}, proc)

# Where perf_event_open is forbidden (a seccomp filter here, as in many containers),
# perf and perfnorm are unsupported with the reason, and asking for one is exit 1.
if opts.deny_perf:
    lprof = t.run(opts.deny_perf, [opts.profiled, "-lprof"], check_exit=0)
    unsupported = lprof.stdout.split("Unsupported profilers:", 1)[-1]
    for name in ("perf", "perfnorm"):
        t.check(f"{name}: " in unsupported, f"perf_event_open forbidden: {name} not unsupported\n{lprof.stdout}")
    t.check("[not permitted" in unsupported and "perf_event_open: EACCES]" in unsupported,
            f"perf_event_open forbidden: no reason in -lprof\n{lprof.stdout}")
    t.check("rusage: " in lprof.stdout.split("Unsupported profilers:", 1)[0], "rusage should stay supported")
    bad = t.run(opts.deny_perf, [opts.profiled, "Alloc.nothing", "-prof", "perfnorm"], check_exit=1)
    t.check("not supported here: not permitted" in bad.stdout + bad.stderr,
            f"-prof perfnorm with perf_event_open forbidden:\n{bad.stdout}{bad.stderr}")

# perf: totals per iteration, summed.
proc, rows = run(["Alloc.nothing", "-prof", "perf:events=task-clock,page-faults"])
expect_rows(rows, "Alloc.nothing", {"perf.task-clock": "ms", "perf.page-faults": "#"}, proc)

# numa: the mode (with this machine's single node, off) and the heap per pool/node.
proc, rows = run(["Alloc.vector_1000", "-prof", "numa"])
expect_rows(rows, "Alloc.vector_1000", {"numa.enabled": "bool", "numa.nodes": "nodes"}, proc)
enabled = rows.get("Alloc.vector_1000:numa.enabled")
lscpu_nodes = t.run("/usr/bin/numactl", ["-H"]).stdout
if enabled and "available: 1 nodes" in lscpu_nodes:
    t.check(t.score(enabled["Score"]) == 0.0, "numa.enabled is not 0 on a single-node machine")
t.check(any(k.startswith("Alloc.vector_1000:numa.") and k.endswith(".used") for k in rows),
        f"no numa.<node>.used row: {sorted(rows)}")

# -XX:+AlwaysPreTouch: the committed heap (-Xms) is touched at start-up, so the first
# touch of its pages in a measurement no longer faults. Pages.first_touch writes one
# byte per 4 KiB page of 64 MiB of new heap in its only op (single shot, no warmup).
faults = {}
for flag in ("-XX:-AlwaysPreTouch", "-XX:+AlwaysPreTouch"):
    proc = t.run(opts.profiled, ["Pages.first_touch", "-f", "1", "-wi", "0", "-i", "1",
                                 "-jvmArgsAppend", f"-Xms256m {flag}", "-prof", "rusage"],
                 timeout=200, check_exit=0)
    rows = rows_of(proc)
    row = rows.get("Pages.first_touch:rusage.minflt.norm")
    if t.check(row is not None, f"{flag}: no rusage.minflt.norm row\n{proc.stdout[-2500:]}"):
        faults[flag] = t.score(row["Score"])
# One first-touch fault per page of the kernel's unit: 4 KiB, or a huge page where
# transparent huge pages are [always] (the allocator does not madvise, so [madvise] and
# [never] fault per 4 KiB page). A region not aligned to the huge page loses at most one.
def fault_unit():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            if "[always]" not in f.read():
                return 4096
        with open("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 4096


UNIT = fault_unit()
PAGES = (64 << 20) // UNIT
WANT_FAULTS = PAGES if UNIT == 4096 else PAGES - 1
PRETOUCHED_BELOW = min(200, PAGES // 2)  # far below one fault per page either way
print(f"rusage.minflt.norm of Pages.first_touch (64 MiB = {PAGES} pages of {UNIT} B): {faults}")
if len(faults) == 2:
    t.check(faults["-XX:-AlwaysPreTouch"] >= WANT_FAULTS,
            f"without pre-touch: {faults['-XX:-AlwaysPreTouch']} faults/op, expected one per {UNIT} B page "
            f"(>= {WANT_FAULTS})")
    t.check(faults["-XX:+AlwaysPreTouch"] < PRETOUCHED_BELOW,
            f"with -XX:+AlwaysPreTouch: {faults['-XX:+AlwaysPreTouch']} faults/op, expected ~0 (< {PRETOUCHED_BELOW})")

t.done()

"""-lprof, -prof name:help and bad -prof input: every profiler listed as supported or
unsupported with its reason (an executable without the bundled allocator says so for
alloc and numa), a user-registered profiler listed and run, and each malformed or
unknown spec rejected with exit 1 before anything runs."""
import re

import cmhtest as t
from profilers_common import executables, rows_of

opts = executables()
NOT_LINKED = ("the bundled allocator is not linked into this executable "
              "(built with NO_ALLOCATOR or the sanitizer build)")
BUILTINS = {"alloc", "numa", "perf", "perfnorm", "rusage"}


def sections(text):
    """{'supported': {name: [lines]}, 'unsupported': {...}} from the -lprof text."""
    out = {"supported": {}, "unsupported": {}}
    current = None
    name = None
    for line in text.splitlines():
        if line.startswith("Supported profilers:"):
            current = out["supported"]
        elif line.startswith("Unsupported profilers:"):
            current = out["unsupported"]
        elif current is not None and re.match(r"^\s*[\w.-]+: ", line):
            name = line.split(":", 1)[0].strip()
            current[name] = [line]
        elif current is not None and name and line.strip().startswith("["):
            current[name].append(line.strip())
    return out


def ran_nothing(proc):
    return "# Run progress" not in proc.stdout and "Iteration" not in proc.stdout


# -lprof with the allocator linked: every built-in and the user's profiler, perf
# usable but (on a machine without a PMU) saying which events it cannot count.
proc = t.run(opts.profiled, ["-lprof"], check_exit=0)
listed = sections(proc.stdout)
print(proc.stdout)
everything = set(listed["supported"]) | set(listed["unsupported"])
t.check(BUILTINS | {"opcount"} <= everything, f"-lprof lists {sorted(everything)}")
t.check("alloc" in listed["supported"], "-lprof: alloc not supported although the allocator is linked")
t.check("gc" in listed["supported"] and "JMH's names" in " ".join(listed["supported"].get("gc", [])),
        "-lprof: gc (alloc under JMH's metric names) is not listed as supported")
t.check("opcount" in listed["supported"], "-lprof: the user profiler is not listed as supported")
for name, lines in listed["unsupported"].items():
    t.check(len(lines) > 1 and lines[1].startswith("["), f"-lprof: unsupported {name} has no reason")
perf_proc = t.run(opts.profiled, ["-prof", "perfnorm:help"])
if "not supported here" in perf_proc.stdout:
    for name in ("perf", "perfnorm"):
        lines = " ".join(listed["supported"].get(name, []) + listed["unsupported"].get(name, []))
        t.check("not supported here" in lines, f"-lprof: {name} does not say which events it cannot count")

# -lprof without the allocator: alloc and numa unsupported, with the reason.
proc = t.run(opts.noalloc, ["-lprof"], check_exit=0)
listed = sections(proc.stdout)
for name in ("alloc", "numa"):
    lines = listed["unsupported"].get(name)
    if t.check(lines is not None, f"no-allocator -lprof: {name} is not under Unsupported profilers"):
        t.check(f"[{NOT_LINKED}]" in lines, f"no-allocator -lprof: {name} reason {lines}")
t.check("rusage" in listed["supported"], "no-allocator -lprof: rusage should still be supported")

# -prof alloc where the allocator is missing: one clear line, exit 1, nothing runs.
proc = t.run(opts.noalloc, ["Alloc.nothing", "-f", "1", "-prof", "alloc"], check_exit=1)
both = proc.stdout + proc.stderr
t.check("Error parsing command line:" in both and NOT_LINKED in both,
        f"-prof alloc without the allocator:\n{both[-2000:]}")
t.check(ran_nothing(proc), "-prof alloc without the allocator still ran something")

# Bad -prof input: each rejected before anything runs.
BAD = {
    "nosuch": "unknown profiler",
    "alloc:thread=live": "unknown option 'thread'",
    "alloc:threads=dead": "expected all or live",
    "alloc:threads": "needs a value",
    "alloc:": "nothing after ':'",
    ":threads=live": "missing profiler name",
    "alloc:threads=live;;alloc=true": "empty option",
    "gc:alloc=maybe": "expected true or false",
    "perfnorm:events=cycels": "unknown event 'cycels'",
    "rusage:x=1": "unknown option 'x'",
}
for spec, fragment in BAD.items():
    proc = t.run(opts.profiled, ["Alloc.nothing", "-f", "1", "-prof", spec], check_exit=1)
    both = proc.stdout + proc.stderr
    t.check("Error parsing command line:" in both and fragment in both,
            f"-prof {spec!r}: expected 'Error parsing command line:' and {fragment!r}, got:\n{both[-1500:]}")
    t.check(ran_nothing(proc), f"-prof {spec!r}: something ran")
    t.check("Traceback" not in both and "terminate" not in both, f"-prof {spec!r}: crashed")

# A good spec next to a bad one is still an error.
proc = t.run(opts.profiled, ["Alloc.nothing", "-prof", "rusage", "-prof", "nosuch"], check_exit=1)

# name:help prints the options (alias too) and runs nothing.
for spec, fragment in {"alloc:help": "What a collection is", "gc:help": "threads=all|live",
                       "rusage:help": "rusage.minflt.norm", "opcount:help": "scale=<n>"}.items():
    proc = t.run(opts.profiled, ["Alloc.nothing", "-prof", spec])
    t.check(proc.returncode in (0, 1), f"-prof {spec}: exit {proc.returncode}")
    t.check(fragment in proc.stdout + proc.stderr, f"-prof {spec}: no {fragment!r} in\n{proc.stdout[-1500:]}")
    t.check(ran_nothing(proc), f"-prof {spec}: something ran")

# The user's profiler runs in the fork with its option and reaches the report.
proc = t.run(opts.profiled, ["Alloc.nothing", "-f", "1", "-wi", "0", "-i", "3", "-r", "50ms",
                             "-prof", "opcount:scale=1000"], check_exit=0)
row = rows_of(proc).get("Alloc.nothing:opcount.all_ops")
if t.check(row is not None, f"no opcount.all_ops row\n{proc.stdout[-2000:]}"):
    t.check(row["Units"] == "ops" and t.score(row["Score"]) > 0, f"opcount.all_ops row {row}")

t.done()

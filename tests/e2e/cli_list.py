"""-l and -lp as JMH prints them: "Benchmarks: " then the selected names, sorted,
and for -lp each parameter as `  param "x" = {a, b}` with -p values applied. Run
against the samples (whatever they hold) and the CLI fixture (exact text)."""
import argparse
import re

import cmhtest as t

parser = argparse.ArgumentParser()
parser.add_argument("--fixture", required=True)
opts = parser.parse_args()


def listing(exe, args):
    proc = t.run(exe, args, timeout=60, check_exit=0)
    out = proc.stdout
    t.check("# Run progress" not in out and "Iteration   1:" not in out, f"{args}: something ran:\n{out}")
    return out


# The samples: the header, TAB's two benchmarks, names sorted and unique.
out = listing(t.SAMPLES, ["-l"])
lines = out.splitlines()
t.check(lines and lines[0] == "Benchmarks: ", f"-l does not open with 'Benchmarks: ':\n{out}")
names = lines[1:]
t.check("TAB.inline" in names and "TAB.separate" in names, f"-l misses the TAB sample:\n{out}")
t.check(names == sorted(names), f"-l is not sorted by name:\n{out}")
t.check(len(names) == len(set(names)), f"-l lists a name twice:\n{out}")
t.check(all(re.fullmatch(r"[A-Za-z_]\w*\.\w+", n) for n in names), f"-l prints something that is not Group.name:\n{out}")

t.check(listing(t.SAMPLES, ["-l", r"^TAB\."]) == "Benchmarks: \nTAB.inline\nTAB.separate\n", "-l ^TAB\\. is not TAB's two")
t.check(listing(t.SAMPLES, ["-l", "TAB", "-e", "separate"]).splitlines()[1:] ==
        [n for n in names if "TAB" in n and "separate" not in n], "-l TAB -e separate")
t.check(listing(t.SAMPLES, ["-l", "NoSuchBenchmarkAnywhere"]) == "Benchmarks: \n",
        "-l with a filter that matches nothing is not just the header")

# -lp of the samples: every line is the header, a name, or a parameter line.
out = listing(t.SAMPLES, ["-lp"])
for line in out.splitlines()[1:]:
    t.check(re.fullmatch(r"[A-Za-z_]\w*\.\w+", line) or re.fullmatch(r'  param "\w+" = \{.*\}', line),
            f"-lp line {line!r} is neither a name nor a parameter")
t.check([l for l in out.splitlines() if not l.startswith("  ")] == lines, "-lp and -l do not list the same benchmarks")

# The fixture: exact text, declared values and -p values.
t.check(listing(opts.fixture, ["-lp"]) ==
        "Benchmarks: \n"
        "CliFixture.empty\n"
        "CliFixture.sum\n"
        '  param "kind" = {array}\n'
        '  param "size" = {1, 10, 100}\n'
        "CliNoValues.depth\n"
        '  param "depth" = {}\n',
        "-lp of the fixture")
t.check(listing(opts.fixture, ["-lp", "sum", "-p", "size=5,6", "-p", "kind=list,tree"]) ==
        "Benchmarks: \n"
        "CliFixture.sum\n"
        '  param "kind" = {list, tree}\n'
        '  param "size" = {5, 6}\n',
        "-lp with -p values")
t.check(listing(opts.fixture, ["-l", "Cli", "-e", "NoValues,empty"]) == "Benchmarks: \nCliFixture.sum\n",
        "-l with two comma-separated excludes")

t.done()

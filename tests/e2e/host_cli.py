"""Patterns, numbers, hidden flags, -f 0 exits and allocator-only fork arguments
(issue 16, findings 1, 2, 3, 4, 10, 11 and 15). A 100,000-character pattern and a
pathological one are clear errors, not a crash or a hang. Every numeric flag is walked with 0, -1, the int
max, max+1 and a 100-digit number: each is accepted or refused with one
"Error parsing command line:" message, never a crash; the values that are
accepted and quick are run for real. -to 9223372036s is not an instant timeout,
-t 2147483647 is a clear error."""
import subprocess
import sys

import cmhtest as t
from host_common import EXE, SHORT, load_json, no_crash, run, tmp_path

NOALLOC = sys.argv[2]

INT_FLAGS = ["-f", "-wf", "-i", "-wi", "-bs", "-wbs", "-opi", "-t", "-tg"]
TIME_FLAGS = ["-r", "-w", "-to"]
VALUES = ["0", "-1", "2147483647", "2147483648", "9" * 100]
TIME_VALUES = VALUES + ["9223372036s", "106751day", "9" * 100 + "s"]
BASE = {"-f": "1", "-wi": "0", "-i": "1", "-r": "10ms", "-w": "10ms"}


def base_without(flag):
    args = []
    for k, v in BASE.items():
        if k != flag:
            args += [k, v]
    return args


for flag in INT_FLAGS + TIME_FLAGS:
    for value in (TIME_VALUES if flag in TIME_FLAGS else VALUES):
        what = f"{flag} {value[:20]}"
        proc = run(["Host.ok", flag, value, "-l"], timeout=60)
        no_crash(proc, what)
        t.check(proc.returncode in (0, 1), f"{what}: exit {proc.returncode}")
        if proc.returncode == 1:
            lines = proc.stderr.strip().splitlines()
            t.check(lines[:1] == ["Error parsing command line:"] and len(lines) == 2 and f"Option {flag}" in lines[1],
                    f"{what}: not one clear command-line error\n{proc.stderr[-600:]}")
            continue
        # Accepted: run it for real where that is quick (a zero, or any timeout).
        if value == "0" or flag == "-to":
            proc = run(["Host.ok", flag, value] + base_without(flag), timeout=120)
            no_crash(proc, what + " (run)")
            out = proc.stdout + proc.stderr
            t.check(proc.returncode in (0, 1, 2), f"{what} (run): exit {proc.returncode}")
            t.check("timed out" not in out, f"{what} (run): a false timeout\n{out[-1500:]}")

# The two findings, each its own case.
proc = run(["Host.ok", "-to", "9223372036s"] + SHORT, expect=0)
t.check("timed out" not in proc.stdout, f"-to 9223372036s: a false timeout\n{proc.stdout[-1500:]}")
proc = run(["Host.ok", "-r", "106751day", "-l"], expect=0)
proc = run(["Host.ok", "-t", "2147483647"] + SHORT, expect=1)
t.check("Option -t" in proc.stderr and "too large" in proc.stderr, f"-t 2147483647: unclear\n{proc.stderr[-600:]}")

# Patterns: a long one (std::regex overflowed its stack) and one that backtracks
# without end (std::regex hung), with -l and with -e. The test's own time limit is
# only there to turn a hang into a failure.
def pattern_run(args, what):
    try:
        proc = run(args, timeout=90)
    except subprocess.TimeoutExpired:
        t.fail(f"{what}: still running after 90 s")
        return None
    no_crash(proc, what)
    return proc


for where in ([], ["-e"]):
    long_pattern = "(" * 100000
    proc = pattern_run(where + [long_pattern, "-l"], f"{where} 100,000 x '('")
    if proc:
        t.check(proc.returncode == 1 and "Error parsing command line" in proc.stderr and "at most 1000" in proc.stderr
                and len(proc.stderr) < 1000, f"{where} long pattern: not one clear error\n{proc.stderr[:600]}")
    # PCRE2 sees at once that no name holds a 'z'; with \d it has to backtrack, up to its limit.
    for bad, costly in (("(a|b|c|d|e)*" * 12 + "z", False), ("(a|b|c|d|e)*" * 12 + "\\d", True)):
        proc = pattern_run(where + [bad, "-l"], f"{where} pathological pattern {bad[-2:]}")
        if proc and costly:
            t.check(proc.returncode == 1 and "too costly" in proc.stderr and len(proc.stderr.splitlines()) == 2,
                    f"{where} pathological pattern: {proc.returncode}\n{proc.stderr[:600]}")
        elif proc:
            listed = "Host.ok" in proc.stdout  # matches nothing: -l lists nothing, -e excludes nothing
            t.check(proc.returncode == 0 and listed == bool(where), f"{where} {bad[-2:]}: {proc.returncode}")
# Java's syntax, as JMH users write it: possessive quantifiers, lookahead, \Q..\E.
proc = run([r"^Host\.(?!ok)ab++cde", "-l"], expect=0)
t.check("Host.abcde" in proc.stdout and "Host.ok" not in proc.stdout, f"Java-style pattern\n{proc.stdout}")
proc = run([r"\QHost.ok\E", "-l"], expect=0)
t.check(proc.stdout.strip().splitlines()[-1].strip() == "Host.ok", f"\\Q..\\E\n{proc.stdout}")

# The hidden worker flag typed by hand: a clear error, and no frame bytes on stdout.
for fd in ("0", "1", "2", "3", "x"):
    proc = run([f"--cmh-fork-worker={fd}"], expect=1, timeout=30)
    t.check("is internal" in proc.stderr, f"--cmh-fork-worker={fd}: no clear message\n{proc.stderr[-400:]}")
    t.check(proc.stdout == "", f"--cmh-fork-worker={fd}: wrote to stdout: {proc.stdout[:100]!r}")

# -f 0 with exit(0) in the body: said, exit 2, and the result file marks it.
json_path = tmp_path("exit0.json")
proc = run(["Host.exit0", "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms", "-rf", "json", "-rff", json_path], expect=2)
t.check("called exit(0)" in proc.stdout, f"-f 0 exit(0): not said\n{proc.stdout[-1500:]}")
records = load_json(json_path, "-f 0 exit(0)")
t.check(records is not None and len(records) == 1 and records[0]["cmh"]["failed"] is True and
        records[0]["cmh"]["runComplete"] is False, f"-f 0 exit(0): wrong result file {records!r:.400}")

# Allocator-only fork arguments in an executable without the bundled allocator.
for args in (["-jvmArgs", "-Xmx8m"], ["-jvmArgsAppend", "-XX:+AlwaysPreTouch"]):
    proc = run(["Host.ok"] + SHORT + args, exe=NOALLOC, expect=1)
    t.check("without cmh's bundled allocator" in proc.stderr, f"{args} without the allocator: not refused\n{proc.stderr}")
    run(["Host.ok"] + SHORT + args, expect=0)  # with it: fine
run(["Host.ok"] + SHORT + ["-jvmArgs", "-DFOO=1"], exe=NOALLOC, expect=0)  # not an allocator argument
run(["Host.ok", "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms", "-jvmArgs", "-Xmx8m"], exe=NOALLOC, expect=0)

t.done()

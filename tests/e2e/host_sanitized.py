"""The crasher matrix against a SANITIZE executable (issue 16, item 8): host and
fork both built with ASan+UBSan. Every fault is reported as in the plain build,
an ASan report in the fork is named as the cause (not "exit() called?"), and the
host itself never produces a sanitizer report: its exit status is the one the
fault table gives (an ASan or UBSan report would end it with 1; leak checking is off)."""
import cmhtest as t
from fork_common import QUICK, failed_row, run

MATRIX = [
    # UBSan sees the null store before ASan sees the SEGV; either report is the cause.
    ("Fault.segfault", "Sanitizer"),
    ("Fault.abort", "signal 6"),
    ("Fault.exit3", "exit code 3"),
    ("Fault.quick_exit0", "exit code 0"),
    ("Fault.throws", "the benchmark failed on purpose"),
    ("Fault.setup_throws", "set-up refused to run"),
    ("Fault.corrupt", "corrupted the results channel"),
]


def no_host_report(proc, what, expect):
    """A report in the host ends it: ASan and UBSan (no recovery) with status 1, LeakSanitizer
    at exit with 23. So the fault table's status (0 or 2) proves the host made none."""
    out = proc.stdout + proc.stderr
    t.check(proc.returncode == expect, f"{what}: exit {proc.returncode}, expected {expect} (a host sanitizer report?)\n{out[-3000:]}")


# Leak checking is off: a fork ended by exit() or a crash leaves allocations that
# LeakSanitizer would report, changing the exit status this test checks. Address and
# undefined-behaviour errors still end the process that makes them with status 1.
NO_LEAKS = {"ASAN_OPTIONS": "detect_leaks=0"}
proc = run(["Fault.ok", "-f", "1"] + QUICK, env=NO_LEAKS)
no_host_report(proc, "Fault.ok", 0)
# The header's "This build uses AddressSanitizer" warning is expected; a report is not.
REPORT_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "SUMMARY: ")
t.check(not any(m in proc.stdout + proc.stderr for m in REPORT_MARKS), f"Fault.ok: a sanitizer report\n{proc.stderr[-2000:]}")
for name, message in MATRIX:
    proc = run([name, "-f", "1"] + QUICK, env=NO_LEAKS)
    no_host_report(proc, name, 2)
    failed_row(proc, name, message)
    if name == "Fault.segfault":
        t.check("exit() or _exit()" not in proc.stdout, f"{name}: blamed on exit() under ASan\n{proc.stdout[-2000:]}")

t.done()

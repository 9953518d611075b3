"""The wrong diagnoses of issue 16 (finding 13), end to end: a benchmark's own
"heap limit" line before a segfault is a segfault, not out of memory; a benchmark
that closes fd 3 is not blamed on exit(); a stopped fork is said to be stopped,
not to have ignored SIGTERM; a stack overflow is said to be one, not a plain
signal 11."""
import cmhtest as t
from host_common import run

QUICK = ["-f", "1", "-wi", "0", "-i", "2", "-r", "30ms"]

proc = run(["Host.heap_limit_line"] + QUICK, expect=2)
out = proc.stdout + proc.stderr
t.check("signal 11 (Segmentation fault)" in out, f"fake heap limit line: not a segfault\n{out[-1500:]}")
t.check("out of memory" not in out, f"fake heap limit line: called out of memory\n{out[-1500:]}")

proc = run(["Host.close_channel"] + QUICK, expect=2)
out = proc.stdout + proc.stderr
t.check("lost its results channel" in out, f"close(3): not said\n{out[-1500:]}")
t.check("exit() or _exit()" not in out, f"close(3): blamed on exit()\n{out[-1500:]}")

# -to (which also bounds the fork's start-up) is a hang guard: it follows the scale.
proc = run(["Host.stop_self"] + QUICK + ["-to", f"{t.guard(1)}s"], expect=2)
out = proc.stdout + proc.stderr
t.check("it was stopped, SIGSTOP" in out, f"stopped fork: not said\n{out[-1500:]}")
t.check("ignored SIGTERM" not in out, f"stopped fork: said to have ignored SIGTERM\n{out[-1500:]}")

proc = run(["Host.stack_overflow"] + QUICK, expect=2)
out = proc.stdout + proc.stderr
t.check("stack overflow (signal 11" in out, f"stack overflow: said as a plain signal 11\n{out[-1500:]}")

t.done()

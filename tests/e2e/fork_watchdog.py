"""The host's watchdog and protocol checks: an iteration that runs past -to is
stopped (SIGTERM, then SIGKILL) and reported as a timeout; a fork kept alive
after it finished (a stray thread joined at exit) is stopped after the grace
period; a fork that writes junk into the results channel is a protocol failure.
In each case the run goes on, nothing is left running, and the exit status is 2."""
import re

import cmhtest as t
from fork_common import QUICK, failed_row, row, run

# -to also bounds the fork's trial set-up after its handshake, so it is a hang guard:
# it follows the scale (an emulated guest sets a trial up many times slower).
TO_MS = t.guard(300)
TO_TEXT = f"{TO_MS // 1000} s" if TO_MS % 1000 == 0 else f"{TO_MS} ms"  # as the host writes it
proc = run(["Fault.(hang|ok)", "-f", "1", "-to", f"{TO_MS}ms"] + QUICK)
failed_row(proc, "Fault.hang", "forked process timed out: warmup iteration 1 ran past its time (30 ms iteration + "
                               f"{TO_TEXT} timeout); cmh stopped the fork")
ok = row(proc.stdout, "Fault.ok")
t.check(ok is not None and ok["Score"] != "FAILED", f"the run did not go on after the timeout: {ok}")

proc = run(["Fault.stray", "-f", "1"] + QUICK)
# The grace is 3 s, or ten times the fork's start-up where forks start slowly (a guest).
failed_row(proc, "Fault.stray", "the fork had finished but did not exit within ")
grace = re.search(r"did not exit within (\d+) s \(stray threads", proc.stdout + proc.stderr)
t.check(grace is not None and int(grace.group(1)) >= 3, f"the stray-thread message names no grace of >= 3 s\n{proc.stdout[-2000:]}")
t.check("Iteration   2:" in proc.stdout, "the stray-thread fork should have completed its iterations first")

proc = run(["Fault.corrupt", "-f", "1"] + QUICK)
failed_row(proc, "Fault.corrupt", "the fork corrupted the results channel: bad frame magic")

t.done()

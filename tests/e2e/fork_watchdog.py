"""The host's watchdog and protocol checks: an iteration that runs past -to is
stopped (SIGTERM, then SIGKILL) and reported as a timeout; a fork kept alive
after it finished (a stray thread joined at exit) is stopped after the grace
period; a fork that writes junk into the results channel is a protocol failure.
In each case the run goes on, nothing is left running, and the exit status is 2."""
import cmhtest as t
from fork_common import QUICK, failed_row, row, run

proc = run(["Fault.(hang|ok)", "-f", "1", "-to", "300ms"] + QUICK)
failed_row(proc, "Fault.hang", "forked process timed out: warmup iteration 1 ran past its time (30 ms iteration + "
                               "300 ms timeout); cmh stopped the fork")
ok = row(proc.stdout, "Fault.ok")
t.check(ok is not None and ok["Score"] != "FAILED", f"the run did not go on after the timeout: {ok}")

proc = run(["Fault.stray", "-f", "1"] + QUICK)
failed_row(proc, "Fault.stray", "the fork had finished but did not exit within 3 s (stray threads")
t.check("Iteration   2:" in proc.stdout, "the stray-thread fork should have completed its iterations first")

proc = run(["Fault.corrupt", "-f", "1"] + QUICK)
failed_row(proc, "Fault.corrupt", "the fork corrupted the results channel: bad frame magic")

t.done()

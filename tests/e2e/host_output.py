"""The fork's stdout is block-buffered (issue 16, finding 14: one write(2) per line was
what made a chatty fork slow), and yet no line is lost or out of place: a line the
benchmark never flushed is in the failure report's tail after a segfault, an abort()
and a hang the watchdog ends (SIGTERM); a line printed during an iteration is echoed
before that iteration's result; a fork that writes 64 MiB of lines completes with its
echo capped."""
import re

import cmhtest as t
from host_common import load_json, run, tmp_path

QUICK = ["-f", "1", "-wi", "0", "-i", "1", "-r", "10ms"]

for bench, line, extra in (("Host.print_then_segfault", "last words before the segfault", []),
                           ("Host.print_then_abort", "last words before abort()", []),
                           ("Host.print_then_hang", "last words before the hang", ["-to", f"{t.guard(1)}s"])):
    json_path = tmp_path(f"{bench}.json")
    proc = run([bench] + QUICK + extra + ["-rf", "json", "-rff", json_path], expect=2)
    records = load_json(json_path, bench)
    failure = records[0]["cmh"].get("failure", {}) if records else {}
    t.check(line in failure.get("stdoutTail", []),
            f"{bench}: the unflushed line is not in the failure's stdout tail: {failure!r:.600}\n{proc.stdout[-1500:]}")

# Each iteration prints one line while it runs: echoed between its start and its result.
proc = run(["Host.print_per_iteration", "-f", "1", "-wi", "2", "-w", "50ms", "-i", "2", "-r", "50ms"], expect=0)
events = []
for text in proc.stdout.splitlines():
    if m := re.match(r"output of iteration (\d+)$", text):
        events.append(("output", int(m.group(1))))
    elif re.match(r"(# Warmup )?Iteration\s+\d+: \S", text):
        events.append(("result", None))
expected = [e for k in range(1, 5) for e in (("output", k), ("result", None))]
t.check(events == expected, f"the iterations' output is not echoed before their results: {events}\n{proc.stdout[-2000:]}")

# 64 MiB of 64-byte lines, past the echo cap: the run completes and the echo stays capped.
proc = run(["Host.chatty", "-f", "1", "-wi", "0", "-i", "1", "-r", "10ms"], env={"CMH_CHATTY_MB": "64"}, expect=0)
t.check("the fork's stdout passed 1 MiB; the rest is not echoed" in proc.stdout, "64 MiB of lines: no echo-cap note")
t.check(len(proc.stdout) < 4 << 20, f"64 MiB of lines: {len(proc.stdout)} bytes echoed past the cap")

t.done()

"""A fork that writes 64 MiB of binary garbage to each of stdout and stderr:
the protocol and the report are unaffected (the benchmark completes with a
score), the echo is capped with a note, the echoed text is printable, and the
host's memory stays bounded (the peak RSS of the host and its forks, as the
kernel reports it to the waiting parent, stays far below what was written)."""
import os
import subprocess
import uuid

import cmhtest as t
from fork_common import EXE, QUICK, check_no_children, row

mark = uuid.uuid4().hex
env = dict(os.environ, CMH_TEST_MARK=mark)
proc = subprocess.Popen([EXE, "Fault.garbage", "-f", "1"] + QUICK, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        env=env, stdin=subprocess.DEVNULL)
# Read both pipes without letting either fill up.
import threading

chunks = {"out": [], "err": []}


def drain(stream, key):
    for block in iter(lambda: stream.read(65536), b""):
        chunks[key].append(block)


readers = [threading.Thread(target=drain, args=(proc.stdout, "out")),
           threading.Thread(target=drain, args=(proc.stderr, "err"))]
for r in readers:
    r.start()
_, status, usage = os.wait4(proc.pid, 0)
for r in readers:
    r.join()
proc.returncode = os.waitstatus_to_exitcode(status)
check_no_children(mark, "Fault.garbage")
stdout = b"".join(chunks["out"]).decode("utf-8")  # must be valid UTF-8
stderr = b"".join(chunks["err"]).decode("utf-8")

t.check(proc.returncode == 0, f"exit {proc.returncode}\n{stdout[-2000:]}")
r = row(stdout, "Fault.garbage")
t.check(r is not None and r["Score"] != "FAILED", f"the benchmark did not complete: {r}")
t.check("the fork's stdout passed 1 MiB; the rest is not echoed" in stdout, "no echo-cap note on stdout")
t.check("the fork's stderr passed 1 MiB; the rest is not echoed" in stderr, "no echo-cap note on stderr")
written = 64 << 20
t.check(len(stdout) < written // 8 and len(stderr) < written // 8,
        f"echoed {len(stdout)} + {len(stderr)} bytes of {written} each: the cap did not hold")
t.check(all(c == "\t" or c == "\n" or ord(c) >= 0x20 for c in stdout + stderr if c != "\x7f") and "\x7f" not in stdout,
        "control characters reached the host's output")
peak_kib = usage.ru_maxrss
print(f"peak RSS of host and fork: {peak_kib} KiB, after {2 * written >> 20} MiB of fork output")
t.check(peak_kib < 96 * 1024, f"peak RSS {peak_kib} KiB: the host buffered the fork's output")

t.done()

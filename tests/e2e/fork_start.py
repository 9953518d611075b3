"""A fork's start-up has its own bound (issue 24). A fork whose static constructor
never returns (faults/start_hang.cpp) is reported as hung at start-up within the
bound -forkStartTimeout sets, never left to -to's 10 minutes; its threads' stacks
are in the report and the JSON when eu-stack or gdb is installed (and may attach),
and the report says why not otherwise. A fork that pre-touches a 256 MiB -Xms heap
runs under the automatic bound, which includes the measured pre-touch allowance."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import cmhtest as t
from fork_common import QUICK, failed_row, row, run

HANG = ["-jvmArgsAppend", "-DCMH_TEST_HANG_AT_START=1"]
DEBUGGERS = [d for d in ("eu-stack", "gdb") if shutil.which(d)]


def debugger_may_attach():
    """Whether a debugger here may attach to a process that is not its child (ptrace
    permission: a container without it, Yama's ptrace_scope 2 or 3)."""
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        tool = DEBUGGERS[0]
        cmd = [tool, "-p", str(sleeper.pid)] if tool == "eu-stack" else \
            ["gdb", "-nx", "-batch", "-p", str(sleeper.pid), "-ex", "bt"]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=t.guard(60), stdin=subprocess.DEVNULL)
        return re.search(r"^#0 ", out.stdout, re.M) is not None
    finally:
        sleeper.kill()
        sleeper.wait()


tmp = tempfile.mkdtemp(prefix="cmh-fork-start-")
json_path = os.path.join(tmp, "hang.json")
# The bound is 1 s: the hang guard (60 s, scaled on a slow machine) proves that the
# 10-minute -to did not apply, without timing anything.
proc = run(["Fault.ok", "-f", "1", "-forkStartTimeout", "1s", "-v", "EXTRA", "-rf", "json", "-rff", json_path]
           + HANG + QUICK, timeout=60)
out = proc.stdout + proc.stderr
failed_row(proc, "Fault.ok", "forked process hung at start-up: no handshake within 1 s (exec, static initialisation")
t.check("# Fork start-up bound (to its handshake): 1 s (-forkStartTimeout)" in out,
        f"-v EXTRA does not show the configured bound\n{out[-3000:]}")
t.check("timed out" not in out, f"the hang was reported as a -to timeout\n{out[-3000:]}")
with open(json_path) as f:
    records = json.load(f)
rec = next((r for r in records if r["benchmark"] == "Fault.ok"), None)
failure = rec["cmh"]["failure"] if rec else {}
t.check(failure.get("kind") == "startup_timeout", f"JSON failure kind: {failure}")

stack_in_report = "<stack>" in out and "sleep_forever_before_main" in out.split("<stack>")[-1]
stack_in_json = any("sleep_forever_before_main" in line for line in failure.get("stack", []))
if not DEBUGGERS:
    t.check("(no stacks: neither eu-stack nor gdb is installed)" in out, f"no debugger, and not said\n{out[-3000:]}")
elif debugger_may_attach():
    t.check(re.search(r"cmh took its stacks with (eu-stack|gdb) and stopped the fork", out) is not None,
            f"the message does not say the stacks were taken\n{out[-3000:]}")
    t.check(stack_in_report, f"the report's stack does not show the static constructor's frame\n{out[-3000:]}")
    t.check(stack_in_json, f"the JSON's stack does not show the static constructor's frame: {failure.get('stack')}")
else:
    print(f"NOTE: {DEBUGGERS[0]} may not attach here; the report must say why when it has no stack")
    t.check(stack_in_report or "(no stacks: " in out, f"neither a stack nor a reason\n{out[-3000:]}")

# No debugger on PATH (the fork itself is exec'd from /proc/self/exe): the message says so.
empty = os.path.join(tmp, "empty-path")
os.makedirs(empty, exist_ok=True)
proc = run(["Fault.ok", "-f", "1", "-forkStartTimeout", "500ms"] + HANG + QUICK, env={"PATH": empty}, timeout=60)
failed_row(proc, "Fault.ok", "no handshake within 0.5 s")
t.check("(no stacks: neither eu-stack nor gdb is installed)" in proc.stdout + proc.stderr,
        f"without a debugger the message should say so\n{(proc.stdout + proc.stderr)[-3000:]}")

# A fork that pre-touches 256 MiB under the automatic bound is not taken for a hung one;
# its bound includes the pre-touch allowance.
proc = run(["Fault.ok", "-f", "1", "-v", "EXTRA", "-jvmArgsAppend", "-Xms256m -XX:+AlwaysPreTouch"] + QUICK,
           expect=0, timeout=120)
out = proc.stdout + proc.stderr
bound = re.search(r"# Fork start-up bound \(to its handshake\): \S+ s = (\d+) s \(automatic; the host started in "
                  r"[\d.]+ m?s\) \+ ([\d.]+) s to "
                  r"pre-touch 256 MiB of -Xms \(([\d.]+) GiB/s measured here, x 10\)", out)
t.check(bound is not None, f"-v EXTRA does not show the automatic bound with its pre-touch allowance\n{out[-3000:]}")
if bound:
    t.check(int(bound.group(1)) >= 5 and float(bound.group(2)) > 0, f"bound parts: {bound.group(0)}")
ok = row(proc.stdout, "Fault.ok")
t.check(ok is not None and ok["Score"] != "FAILED", f"the pre-touched fork failed\n{out[-3000:]}")
t.check("hung at start-up" not in out, f"a pre-touched fork was taken for a hung one\n{out[-3000:]}")

shutil.rmtree(tmp, ignore_errors=True)
t.done()

#!/usr/bin/env python3
"""Compiles blackhole_probe.cpp to assembly with the given compiler at -O2 and
checks that Blackhole::consume keeps consumed work (its distinctive constants
appear in the right functions), costs no instruction of its own, and that the
same work without consume() is eliminated.
usage: check_blackhole.py <c++ compiler> <harness include dir> <probe.cpp>"""
import re
import subprocess
import sys


def function_bodies(asm):
    """Maps function name -> its instructions (labels, directives, comments and #APP markers dropped)."""
    bodies, current = {}, None
    for raw in asm.splitlines():
        line = raw.split("#", 1)[0].strip()
        label = re.match(r"^([A-Za-z_][\w$]*):$", line)
        if label:
            current = label.group(1)
            bodies[current] = []
        elif line.startswith(".size") or line.startswith(".cfi_endproc"):
            current = None
        elif current and line and not line.startswith(".") and not line.endswith(":") and line != "endbr64":
            bodies[current].append(line)
    return bodies


def main():
    compiler, include, source = sys.argv[1:4]
    proc = subprocess.run([compiler, "-std=c++20", "-O2", "-S", "-o", "-", "-I", include, source],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stderr)
        print("FAIL: the probe does not compile")
        return 1
    bodies = function_bodies(proc.stdout)
    failures = []

    def body(name):
        if name not in bodies:
            failures.append(f"{name}: not found in the assembly")
            return ""
        return "\n".join(bodies[name])

    def expect(cond, message):
        if not cond:
            failures.append(message)

    only = bodies.get("probe_consume_only", [])
    expect([i.split()[0] for i in only] in (["ret"], ["retq"]),
           f"probe_consume_only: consume() emitted instructions: {only}")
    expect("19088743" in body("probe_consumed_multiply") or "0x1234567" in body("probe_consumed_multiply"),
           "probe_consumed_multiply: the consumed multiplication is missing")
    expect("124076833" not in body("probe_unconsumed_multiply"),
           "probe_unconsumed_multiply: an unconsumed computation was kept (the check would prove nothing)")
    expect("666666" in body("probe_consumed_constant"), "probe_consumed_constant: the constant is missing")
    expect("31415926" in body("probe_consumed_pointer"),
           "probe_consumed_pointer: the store through the consumed pointer is missing")
    expect(re.search(r"callq?\s+\S*(_Znam|_Znwm|malloc)", body("probe_consumed_pointer")) is not None,
           "probe_consumed_pointer: the allocation is missing")
    expect("27182818" not in body("probe_unconsumed_pointer"),
           "probe_unconsumed_pointer: a dead store was kept")
    reload = body("probe_lvalue_reload")
    expect("55556" not in reload, "probe_lvalue_reload: the sink did not make the value opaque")
    expect("77777" in body("probe_consumed_struct"), "probe_consumed_struct: the consumed object is missing")

    for f in failures:
        print("FAIL:", f)
    if failures:
        print(proc.stdout)
        return 1
    print(f"ok: {len(bodies)} probe functions checked with {compiler}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

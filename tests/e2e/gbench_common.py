"""Shared by the gbench_compat tests: the (cmh build, Google Benchmark build)
pairs of each tests/gbench_compat program, from the command line."""
import sys

import cmhtest as t

# Short but real: one fork, one warmup and two measurement iterations of 20 ms.
QUICK = ["-f", "1", "-wi", "1", "-i", "2", "-w", "20ms", "-r", "20ms"]


def programs():
    """{"registration": (cmh_exe, google_exe), ...} in the order CMake passes them."""
    exes = sys.argv[1:]
    names = ["registration", "fixtures", "allocation", "reporting", "paused"]
    return {name: (exes[2 * i], exes[2 * i + 1]) for i, name in enumerate(names)}


def list_tests(exe, *extra):
    proc = t.run(exe, ["--benchmark_list_tests"] + list(extra), check_exit=0)
    return [line for line in proc.stdout.splitlines() if line.strip()]

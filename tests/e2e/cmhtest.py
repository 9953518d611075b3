"""Small helpers shared by the end-to-end tests: run a real executable with a
bounded time, and read JMH's summary table back. Each test script is a plain
program: it exits 0 when every check passed and prints what failed otherwise."""
import os
import re
import subprocess
import sys

BUILD = os.environ.get("CMH_BUILD_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build"))
SOURCE = os.environ.get("CMH_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLES = os.path.join(BUILD, "samples", "cmh-samples")

# Short iterations for tests: real measurements, small budgets.
QUICK = ["-wi", "1", "-i", "3", "-w", "50ms", "-r", "100ms"]

_failures = []

# The hang guards' multiplier (scripts/test-numa's TIMEOUT_SCALE: an emulated guest runs
# code many times slower). It scales only the bounds that stop a hung process, never a
# bound on a measured value.
TIMEOUT_SCALE = max(1, int(os.environ.get("CMH_TEST_TIMEOUT_SCALE", "1") or "1"))


def guard(seconds):
    """A hang guard of `seconds` on this machine, scaled by CMH_TEST_TIMEOUT_SCALE."""
    return seconds * TIMEOUT_SCALE


def skip(reason):
    """Exits 77 (ctest: skipped), saying why on a line of its own."""
    print(f"SKIP: {reason}")
    sys.exit(77)


def run(exe, args, timeout=120, env=None, check_exit=None):
    """Runs exe with args, returns CompletedProcess (text). check_exit: expected status.
    timeout is a hang guard (scaled by guard())."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=guard(timeout),
                          env=full_env, stdin=subprocess.DEVNULL)
    if check_exit is not None and proc.returncode != check_exit:
        fail(f"{os.path.basename(exe)} {' '.join(args)}: exit {proc.returncode}, expected {check_exit}\n"
             f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-4000:]}")
    return proc


def check(cond, message):
    if not cond:
        fail(message)
    return cond


def fail(message):
    _failures.append(message)
    print("FAIL:", message, file=sys.stderr)


def summary_rows(stdout):
    """Parses the summary table that ends a run into dicts keyed by column name.
    Param columns appear as '(name)'. Error is None when blank."""
    lines = stdout.splitlines()
    start = None
    for i, line in enumerate(lines):
        if line.startswith("Benchmark ") and " Mode " in line and " Units" in line:
            start = i
    if start is None:
        return []
    header = lines[start]
    cols = header.split()
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or line.startswith("Benchmark result") or line.startswith("#"):
            break
        parts = line.replace("≈ ", "≈").split()
        row = {"Benchmark": parts[0]}
        rest = parts[1:]
        # Units is always last; Score (and optionally "± Error") precede it.
        row["Units"] = rest[-1]
        rest = rest[:-1]
        err = None
        if "±" in rest:
            k = rest.index("±")
            err = rest[k + 1]
            rest = rest[:k] + rest[k + 2:]
        row["Error"] = err
        row["Score"] = rest[-1]
        rest = rest[:-1]
        # Then Mode, optional Cnt, and param columns in front.
        nparams = sum(1 for c in cols if c.startswith("("))
        row["params"] = rest[:nparams]
        rest = rest[nparams:]
        row["Mode"] = rest[0] if rest else None
        row["Cnt"] = rest[1] if len(rest) > 1 else None
        rows.append(row)
    return rows


def score(value):
    """A summary-table score as a float ('≈ 10⁻⁴' and '≈ 0' read as 0)."""
    if value.startswith("≈"):
        return 0.0
    return float(value.replace(",", ""))


def done():
    if _failures:
        print(f"0 passed, {len(_failures)} failed", file=sys.stderr)
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)

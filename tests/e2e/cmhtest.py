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


def run(exe, args, timeout=120, env=None, check_exit=None):
    """Runs exe with args, returns CompletedProcess (text). check_exit: expected status."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=timeout,
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

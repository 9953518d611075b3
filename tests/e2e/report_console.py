"""The console report of real runs: the header lines, iteration lines, the Result
block and the summary table, and JMH's statistics recomputed with scipy from the
iteration scores the report itself printed (pooled over forks, 99.9 % Student t)."""
import argparse
import math
import os
import re

import scipy.optimize
import scipy.special

import cmhtest
from cmhtest import check, run, summary_rows

parser = argparse.ArgumentParser()
parser.add_argument("--fixture", required=True)
FIXTURE = parser.parse_args().fixture
QUICK = ["-wi", "1", "-i", "3", "-w", "50ms", "-r", "100ms"]

ITERATION = re.compile(r"^Iteration +(\d+): (\S+) (\S+)$", re.M)


def blocks_by_benchmark(stdout):
    """Splits the output at each header: {"Report.spin (tokens = 50)": text}."""
    out = {}
    for part in stdout.split("# cmh version: ")[1:]:
        name = re.search(r"^# Benchmark: (\S+)$", part, re.M).group(1)
        params = re.search(r"^# Parameters: (.*)$", part, re.M)
        out[name + (" " + params.group(1) if params else "")] = part
    return out


def close(actual, expected, what, amplification=1.0):
    """Printed scores carry 3 decimals: the inputs are rounded by up to 0.0005 each, which
    moves a statistic by up to `amplification` times that, and the output by 0.0005 more."""
    ok = abs(actual - expected) <= 0.0005 * amplification + 0.0006 + 1e-9 * abs(expected)
    return check(ok, f"{what}: report says {actual}, recomputed {expected}")


def t_critical(df):
    """t with P(T < t) = 0.9995, solved on the CDF: scipy's t.ppf itself is off by up to 2e-9
    (df = 5, 99), more than the report's own Boost.Math quantile."""
    return scipy.optimize.brentq(lambda t: scipy.special.stdtr(df, t) - 0.9995, 1.0, 1000.0, xtol=1e-14)


def recompute(scores):
    n = len(scores)
    mean = sum(scores) / n
    s = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1))
    err = t_critical(n - 1) * s / math.sqrt(n)
    # How far rounding every input by 0.0005 can move s, and the error t * s / sqrt(n).
    s_amp = math.sqrt(n / (n - 1))
    err_amp = t_critical(n - 1) / math.sqrt(n) * s_amp + 1
    return mean, err, s, s_amp, err_amp


def check_throughput_run(args, fork_lines, forks):
    proc = run(FIXTURE, ["Report.spin"] + QUICK + args, check_exit=0)
    out = proc.stdout
    blocks = blocks_by_benchmark(out)
    check(set(blocks) == {"Report.spin (tokens = 50)", "Report.spin (tokens = 200)"}, f"headers: {list(blocks)}")
    exe = os.path.realpath(FIXTURE)
    for key, text in blocks.items():
        for line in ["# Compiler: ", f"# Executable: {exe}\n", "# Fork options: ",
                     "# Warmup: 1 iteration, 50 ms each\n", "# Measurement: 3 iterations, 100 ms each\n",
                     "# Timeout: 10 min per iteration\n", "# Threads: 1 thread, will synchronize iterations\n",
                     "# Benchmark mode: Throughput, ops/time\n", "# Run progress: "]:
            check(line in text, f"{key}: no {line.strip()!r} in the header")
        for fork_line in fork_lines:
            check(fork_line in text, f"{key}: no {fork_line!r}")
        # Each fork says what its allocator decided (the host's view is not the fork's).
        want = forks if "-f" in args and args[args.index("-f") + 1] != "0" else 0
        check(text.count("# Fork NUMA: ") == want, f"{key}: {text.count('# Fork NUMA: ')} '# Fork NUMA:' lines")
        check(text.count("# Warmup Iteration   1: ") == forks, f"{key}: warmup lines")
        scores = [float(m.group(2)) for m in ITERATION.finditer(text)]
        units = {m.group(3) for m in ITERATION.finditer(text)}
        check(units == {"ops/s"}, f"{key}: iteration units {units}")
        expected_n = 3 * forks
        if not check(len(scores) == expected_n, f"{key}: {len(scores)} iteration lines, expected {expected_n}"):
            continue
        mean, err, s, s_amp, err_amp = recompute(scores)
        num = r"(≈ \S+|\S+)"  # a score may print as "≈ 0" (a negative CI bound)
        m = re.search(rf'Result "Report\.spin":\n  {num} ±\(99\.9%\) {num} ops/s \[Average\]\n'
                      rf"  \(min, avg, max\) = \({num}, {num}, {num}\), stdev = {num}\n"
                      rf"  CI \(99\.9%\): \[{num}, {num}\] \(assumes normal distribution\)\n", text)
        if not check(m is not None, f"{key}: no Result block"):
            continue
        close(float(m.group(1)), mean, f"{key} score")
        close(float(m.group(2)), err, f"{key} error", err_amp)
        close(float(m.group(3)), min(scores), f"{key} min")
        close(float(m.group(5)), max(scores), f"{key} max")
        close(float(m.group(6)), s, f"{key} stdev", s_amp)
        if not m.group(7).startswith("≈"):
            close(float(m.group(7)), mean - err, f"{key} CI low", err_amp + 1)
        close(float(m.group(8)), mean + err, f"{key} CI high", err_amp + 1)

    check("# Run complete. Total time: " in out, "no run-complete line")
    check("Keep in mind:" in out, "no closing reminder")
    rows = summary_rows(out)
    spin = [r for r in rows if r["Benchmark"] == "Report.spin"]
    check([r["params"] for r in spin] == [["50"], ["200"]], f"param column: {[r['params'] for r in spin]}")
    for r in spin:
        check(r["Mode"] == "thrpt" and r["Units"] == "ops/s", f"row {r}")
        check(r["Cnt"] == str(3 * forks), f"Cnt of {r}")
        check(r["Error"] is not None, f"no error in {r}")
    header = next(line for line in out.splitlines() if line.startswith("Benchmark "))
    check(re.fullmatch(r"Benchmark +\(tokens\) +Mode +Cnt +Score +Error +Units", header) is not None,
          f"table header {header!r}")


def check_sample_run():
    proc = run(FIXTURE, ["Report.spin", "-p", "tokens=50", "-bm", "sample", "-tu", "us", "-f", "0"] + QUICK,
               check_exit=0)
    out = proc.stdout
    check("# Benchmark mode: Sampling time\n" in out, "sample-mode header")
    n = re.search(r"^  N = (\d+)$", out, re.M)
    check(n is not None, "no N = line in the distribution block")
    check("  Histogram, us/op:\n" in out and "  Percentiles, us/op:\n" in out, "distribution block")
    check(re.search(r"^    p\(100\.0000\) = +\S+ us/op$", out, re.M) is not None, "p(100.0000) line")
    check(len(re.findall(r"^    \[ *\S+, +\S+\) = \d+$", out, re.M)) >= 10, "at least ten histogram bins")
    rows = summary_rows(out)
    names = [r["Benchmark"] for r in rows]
    expected = ["Report.spin"] + [f"Report.spin:p{p}" for p in
                                  ("0.00", "0.50", "0.90", "0.95", "0.99", "0.999", "0.9999", "1.00")]
    check(names == expected, f"sample rows {names}")
    if n and rows:
        check(rows[0]["Cnt"] == n.group(1), f"Cnt {rows[0]['Cnt']} is not N = {n.group(1)}")
        check(all(r["Cnt"] is None for r in rows[1:]), "percentile rows have no Cnt")
        values = [cmhtest.score(r["Score"]) for r in rows[1:]]
        check(values == sorted(values), f"percentiles not monotonic: {values}")
    per_iteration = re.findall(r"^                 p0\.50:   \S+ us/op$", out, re.M)
    check(len(per_iteration) == 3, f"p0.50 under each measurement iteration: {len(per_iteration)}")


def check_failed_run():
    proc = run(FIXTURE, ["Report"] + QUICK + ["-f", "0", "-p", "tokens=50"])
    out = proc.stdout
    check(proc.returncode == 2, f"a failed benchmark exits 2, got {proc.returncode}")
    check("<failure>" in out, "no <failure> on the iteration line")
    rows = {r["Benchmark"]: r for r in summary_rows(out)}
    check(rows.get("Report.fails", {}).get("Score") == "FAILED", f"no FAILED row: {list(rows)}")
    check(rows.get("Report.spin", {}).get("Cnt") == "3", "the other benchmark still has its row")
    check(re.search(r"^  Report\.fails thrpt: .*deliberate failure for the report test", out, re.M) is not None,
          "the reason is listed under the table")


check_throughput_run(["-f", "0"], ["# Fork: N/A, test runs in the host process\n"], 1)
check_throughput_run(["-f", "2"], ["# Fork: 1 of 2\n", "# Fork: 2 of 2\n"], 2)
check_sample_run()
check_failed_run()
cmhtest.done()

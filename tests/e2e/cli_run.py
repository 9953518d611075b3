"""Flags reach the run: -p points run as the outer product in order, -bm expands
in JMH's mode order with single-shot defaults, -tu sets the units, -wi/-i set the
iteration counts, -forkArgs* with a valid argument runs in a fork."""
import argparse

import cmhtest as t

parser = argparse.ArgumentParser()
parser.add_argument("--fixture", required=True)
opts = parser.parse_args()

SHORT = ["-w", "20ms", "-r", "20ms"]


def run(args):
    proc = t.run(opts.fixture, args + SHORT, timeout=120, check_exit=0)
    return proc, t.summary_rows(proc.stdout)


# Parameters from -p, in the order given, the first name (kind) outermost.
proc, rows = run(["CliFixture.sum", "-f", "0", "-wi", "1", "-i", "2", "-bm", "avgt", "-tu", "us",
                  "-p", "size=3,2", "-p", "kind=a,bb"])
t.check(len(rows) == 4, f"expected 4 summary rows, got {rows}\n{proc.stdout[-3000:]}")
t.check([r["params"] for r in rows] == [["a", "3"], ["a", "2"], ["bb", "3"], ["bb", "2"]],
        f"parameter points out of order: {[r['params'] for r in rows]}")
t.check(all(r["Benchmark"] == "CliFixture.sum" and r["Mode"] == "avgt" and r["Units"] == "us/op" for r in rows),
        f"mode/unit not as set: {rows}")
t.check(all(r["Cnt"] == "2" for r in rows), f"-i 2 did not give Cnt 2: {rows}")
t.check(proc.stdout.count("# Warmup Iteration   1:") == 4 and "# Warmup Iteration   2:" not in proc.stdout,
        "-wi 1 did not give one warmup iteration per point")
t.check(proc.stdout.count("Iteration   2:") >= 4, "-i 2 did not give two measurement iterations per point")
t.check("# Parameters: (kind = a, size = 3)" in proc.stdout, "the header does not show the first point")

# Modes run in JMH's order whatever -bm says; single shot gets 0 warmup and 1 measurement.
proc, rows = run(["CliFixture.empty", "-f", "0", "-bm", "ss,thrpt", "-i", "1", "-wi", "1"])
t.check([r["Mode"] for r in rows] == ["thrpt", "ss"], f"modes not in JMH's order: {[r['Mode'] for r in rows]}")
t.check(rows and rows[0]["Units"] == "ops/s", f"throughput is not ops/s by default: {rows}")
t.check(len(rows) > 1 and rows[1]["Units"] == "ns/op", f"single shot is not ns/op by default: {rows}")

proc, rows = run(["CliFixture.empty", "-f", "0", "-bm", "ss"])
t.check("# Warmup Iteration" not in proc.stdout, "single shot ran warmup iterations by default")
t.check(rows and rows[0]["Cnt"] in (None, "1"), f"single shot did not run one measurement iteration: {rows}")

# A valid fork argument runs in a fork (the vocabulary itself is tested with the forks).
proc, rows = run(["CliFixture.empty", "-f", "1", "-wi", "0", "-i", "1", "-jvmArgsAppend", "-DCMH_CLI_TEST=1"])
t.check(len(rows) == 1 and "# Fork: 1 of 1" in proc.stdout, f"the forked run did not complete:\n{proc.stdout[-3000:]}")

t.done()

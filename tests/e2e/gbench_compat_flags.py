"""Google Benchmark's command line keeps working under cmh. Every --benchmark_* flag
of Google Benchmark 1.7-1.9 is accepted, spelled as Google Benchmark allows (a
boolean may stand alone), by the cmh build as by Debian's Google Benchmark
build; a repeated flag and an environment variable follow Google Benchmark's rules
(the last one wins, the command line beats the environment); -v EXTRA says what each
flag became; flags cmh cannot honour are accepted with one line saying why; an
unknown --benchmark_* flag or a bad value is one clear error line and exit 1. cmh's
own flags (-p) work on a Google Benchmark suite."""
import json
import os
import tempfile

import cmhtest as t
from gbench_common import list_tests, programs

cmh, google = programs()["registration"]
tmp = tempfile.mkdtemp()
quick = ["-wi", "1", "-i", "2", "-w", "20ms"]

# Every flag, as Google Benchmark 1.7 spells it, leaves the listing as it is, in both builds.
everything = list_tests(google)
for flag in ["--benchmark_min_time=0.01", "--benchmark_min_warmup_time=0.01", "--benchmark_repetitions=2",
             "--benchmark_enable_random_interleaving=true", "--benchmark_report_aggregates_only=true",
             "--benchmark_display_aggregates_only", "--benchmark_format=json", "--benchmark_out_format=csv",
             "--benchmark_out=" + os.path.join(tmp, "unused.json"), "--benchmark_color=false",
             "--benchmark_color=auto", "--benchmark_counters_tabular=true", "--benchmark_context=ci=yes,run=7",
             "--benchmark_time_unit=us", "--v=0", "--benchmark_color=no", "--benchmark_perf_counters=CYCLES"]:
    ours, theirs = list_tests(cmh, flag), list_tests(google, flag)
    t.check(ours == theirs == everything, f"{flag}: the listings differ\n cmh:    {ours[:5]}\n google: {theirs[:5]}")
# Google Benchmark 1.8 and 1.9 spellings (Debian's 1.7 does not know them).
for flag in ["--benchmark_min_time=100x", "--benchmark_min_time=0.5s", "--benchmark_dry_run",
             "--benchmark_dry_run=false"]:
    t.check(list_tests(cmh, flag) == everything, f"{flag}: the listing changed")

# A repeated flag keeps its last value; the environment is the default the command line beats.
for args, env, expected in [(["--benchmark_filter=BM_pairs", "--benchmark_filter=BM_memcpy"], {}, "BM_memcpy"),
                            ([], {"BENCHMARK_FILTER": "BM_pairs"}, "BM_pairs"),
                            (["--benchmark_filter=BM_memcpy"], {"BENCHMARK_FILTER": "BM_pairs"}, "BM_memcpy")]:
    lists = [t.run(exe, args + ["--benchmark_list_tests"], env=env, check_exit=0).stdout.split() for exe in (cmh, google)]
    t.check(lists[0] == lists[1] and lists[0] and all(n.startswith(expected) for n in lists[0]),
            f"{args} {env}: cmh {lists[0]}, google {lists[1]}, expected {expected}*")

# -v EXTRA: what each flag became; a repeated one is read once, with its last value.
out = os.path.join(tmp, "r.json")
proc = t.run(cmh, ["--benchmark_filter=BM_memcpy", "--benchmark_out=" + out, "--benchmark_out_format=json",
                   "--benchmark_min_time=5s", "--benchmark_min_time=0.02", "--benchmark_repetitions=2",
                   "-v", "EXTRA"] + quick, timeout=t.guard(200), check_exit=0)
for line in ["# gbench flag: --benchmark_filter=BM_memcpy  ->  BM_memcpy",
             "# gbench flag: --benchmark_min_time=0.02  ->  -r 20ms",
             "# gbench flag: --benchmark_repetitions=2  ->  -f 2",
             "# gbench flag: --benchmark_out_format=json  ->  -rf gbench"]:
    t.check(line in proc.stdout, f"-v EXTRA does not print '{line}'\n{proc.stdout[:2000]}")
t.check("-r 5s" not in proc.stdout, "the first --benchmark_min_time was not replaced by the second")
t.check("# Fork: 2 of 2" in proc.stdout, "--benchmark_repetitions=2 did not give two forks")
with open(out) as f:
    names = {b["name"] for b in json.load(f)["benchmarks"]}
t.check({"BM_memcpy/64", "BM_memcpy/4096"} <= names and not any("BM_pairs" in n for n in names),
        f"--benchmark_filter not applied: {sorted(names)}")

# Flags cmh cannot honour run, each with one line saying why; --v=1 is -v EXTRA.
proc = t.run(cmh, ["--benchmark_filter=BM_empty$", "--benchmark_color=false", "--benchmark_counters_tabular=true",
                   "--benchmark_enable_random_interleaving=true", "--benchmark_perf_counters=NO_SUCH_COUNTER",
                   "--v=1", "-f", "1", "-r", "20ms"] + quick, timeout=t.guard(120), check_exit=0)
for flag in ["--benchmark_color=false", "--benchmark_counters_tabular=true", "--benchmark_enable_random_interleaving=true"]:
    lines = [line for line in proc.stderr.splitlines() if line.startswith("# " + flag + ": accepted and ignored: ")]
    t.check(len(lines) == 1, f"{flag}: expected one 'accepted and ignored' line on stderr\n{proc.stderr[-2000:]}")
t.check("NO_SUCH_COUNTER (cmh has no such counter) not counted" in proc.stderr,
        f"an unknown perf counter is not reported\n{proc.stderr[-2000:]}")
t.check("# gbench flag: --v=1  ->  -v EXTRA" in proc.stdout, "--v=1 did not become -v EXTRA\n" + proc.stdout[:2000])

# --benchmark_dry_run: one single pass in one fork; --benchmark_min_warmup_time=0: no warmup.
path = os.path.join(tmp, "dry.json")
t.run(cmh, ["--benchmark_filter=BM_memcpy/64", "--benchmark_dry_run", "-rf", "json", "-rff", path],
      timeout=t.guard(120), check_exit=0)
with open(path) as f:
    r = json.load(f)[0]
t.check((r["mode"], r["forks"], r["warmupIterations"], r["measurementIterations"], r["measurementBatchSize"]) ==
        ("ss", 1, 0, 1, 1), f"--benchmark_dry_run ran {r['mode']} {r['forks']} forks {r['warmupIterations']}+"
                            f"{r['measurementIterations']} iterations of {r['measurementBatchSize']}")
proc = t.run(cmh, ["--benchmark_filter=BM_empty$", "--benchmark_min_warmup_time=0", "-f", "1", "-i", "1", "-r", "20ms"],
             timeout=t.guard(120), check_exit=0)
t.check("# Warmup: <none>" in proc.stdout, "--benchmark_min_warmup_time=0 did not turn the warmup off")

# --help: Google Benchmark's flags, then cmh's options.
proc = t.run(cmh, ["--help"], check_exit=0)
t.check("--benchmark_perf_counters" in proc.stdout and "-wm" in proc.stdout, "--help lacks the flags\n" + proc.stdout[:800])

# A filter that matches nothing: Google Benchmark's line and status 0, in both builds.
for exe in (cmh, google):
    proc = t.run(exe, ["--benchmark_filter=NoSuchBenchmark", "--benchmark_out=" + os.path.join(tmp, "none.json")],
                 timeout=t.guard(60), check_exit=0)
    t.check("Failed to match any benchmarks against regex: NoSuchBenchmark" in proc.stderr,
            f"{exe}: no-match message missing\n{proc.stderr}")

# A negative filter, and cmh's -p replacing an argument.
proc = t.run(cmh, ["--benchmark_filter=-^BM_", "--benchmark_list_tests"], check_exit=0)
t.check(proc.stdout.splitlines() == [n for n in everything if not n.startswith("BM_")] and "pairs_apply/1/10" in proc.stdout,
        f"negative filter: {proc.stdout.split()}")
proc = t.run(cmh, ["BM_accumulate/16$", "-p", "arg0=4096", "-f", "0", "-r", "20ms"] + quick, timeout=t.guard(120),
             check_exit=0)
t.check("4096" in proc.stdout and "BM_accumulate/16" in proc.stdout, "-p arg0=4096 did not run\n" + proc.stdout[-2000:])

# Errors: one line, exit 1, nothing run.
for bad, words in [("--benchmark_bogus=1", "not a Google Benchmark flag"),
                   ("--benchmark_min_time=fast", "expected seconds"),
                   ("--benchmark_min_time=0.5x", "iteration count"),
                   ("--benchmark_repetitions=0", "positive integer"),
                   ("--benchmark_out_format=xml", "expected json, console or csv"),
                   ("--benchmark_format=xml", "expected console, json or csv"),
                   ("--benchmark_time_unit=min", "expected ns, us, ms or s"),
                   ("--benchmark_context=novalue", "key=value"),
                   ("--benchmark_filter", "needs a value"),
                   ("-benchmark_filter=BM_x", "Unknown option"),
                   ("--v=loud", "not a boolean")]:
    proc = t.run(cmh, [bad], timeout=t.guard(60))
    if bad == "--v=loud":  # not a number: cmh's own -v, which rejects the level
        t.check(proc.returncode == 1 and "Error parsing command line:" in proc.stderr, f"{bad}: {proc.stderr}")
        continue
    t.check(proc.returncode == 1 and words in proc.stderr and "Error parsing command line:" in proc.stderr and
            proc.stdout == "", f"{bad}: unclear error (exit {proc.returncode})\n{proc.stderr}")
proc = t.run(cmh, ["--benchmark_filter=BM_(", "--benchmark_list_tests"], check_exit=1)
t.check("invalid regexp" in proc.stderr, "a bad --benchmark_filter is not a clear error\n" + proc.stderr)

t.done()

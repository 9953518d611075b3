"""End-to-end: result files written by real runs and read back by standard readers.

- every format from one run of cmh-formats-bench (params that need quoting, a
  failing benchmark), parsed with Python's json and csv modules;
- -rf/-rff errors at start-up: exit 1, one line naming the path, nothing run;
- files are rewritten after every benchmark: a host killed with SIGKILL mid-run
  leaves valid files holding the completed benchmarks, marked incomplete;
- numbers stay '.'-decimal under a comma-decimal locale (built with localedef)."""
import argparse
import csv
import io
import json
import os
import signal
import subprocess
import tempfile
import time

from cmhtest import QUICK, check, done, run

parser = argparse.ArgumentParser()
parser.add_argument("--bench", required=True)
parser.add_argument("--driver", required=True)
args = parser.parse_args()

work = tempfile.mkdtemp(prefix="cmh-formats-files-")
JMH_KEYS = ["jmhVersion", "benchmark", "mode", "threads", "forks", "jvm", "jvmArgs", "jdkVersion", "vmName",
            "vmVersion", "warmupIterations", "warmupTime", "warmupBatchSize", "measurementIterations",
            "measurementTime", "measurementBatchSize"]
NASTY = 'a b,"c";d_#{}'


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


# ---- One real run, every format ----
stem = os.path.join(work, "all")
proc = run(args.bench, ["Formats", "-f", "1", "-bm", "avgt", "-rf", "JSON,gbench,csv,scsv,latex,text",
                        "-rff", stem + ".json"] + QUICK, timeout=200, check_exit=2)  # Formats.fails fails
paths = {ext: stem + "." + ext for ext in ("json", "gbench.json", "csv", "scsv", "tex", "txt")}
for ext, path in paths.items():
    check(os.path.isfile(path), f"-rf all: {path} was not written")
    check("Benchmark result is saved to " + path in proc.stdout, f"-rf all: no 'saved to' line for {path}")
leftovers = [n for n in os.listdir(work) if ".tmp-" in n]
check(not leftovers, f"temporary files left behind: {leftovers}")

doc = json.loads(read(paths["json"]))
check(isinstance(doc, list) and len(doc) == 4, f"json: expected 4 records, got {len(doc)}")
by_point = {(r["benchmark"], r.get("params", {}).get("kind")): r for r in doc}
for rec in doc:
    keys = list(rec.keys())
    expected = JMH_KEYS + (["params"] if "params" in rec else []) + ["primaryMetric", "secondaryMetrics", "cmh"]
    check(keys == expected, f"json: keys of {rec['benchmark']} are {keys}")
    check(rec["vmName"] == "cmh" and rec["mode"] == "avgt" and rec["forks"] == 1, f"json: header of {rec}")
    check(isinstance(rec["secondaryMetrics"], dict), "json: secondaryMetrics must always be present")
    check(rec["cmh"]["runComplete"] is True, "json: a finished run must say runComplete: true")
quoted = by_point.get(("Formats.param", NASTY))
if check(quoted is not None, f"json: no record for kind={NASTY}: {list(by_point)}"):
    check(quoted["params"] == {"kind": NASTY}, f"json: params {quoted['params']}")
    pm = quoted["primaryMetric"]
    check(isinstance(pm["score"], float) and pm["score"] > 0, f"json: score {pm['score']}")
    check(len(pm["rawData"]) == 1 and len(pm["rawData"][0]) == 3, f"json: rawData {pm['rawData']}")
    check(list(pm["scorePercentiles"]) == ["0.0", "50.0", "90.0", "95.0", "99.0", "99.9", "99.99", "99.999",
                                           "99.9999", "100.0"], "json: percentile keys")
fails = by_point.get(("Formats.fails", None))
if check(fails is not None, "json: the failed benchmark has no record"):
    f = fails["cmh"]
    check(f["failed"] is True and f["failure"]["kind"] == "exception", f"json: failure {f}")
    check(f["failure"]["message"] == 'deliberate "failure" \\ with quotes', f"json: message {f['failure']}")
    check(f["failure"]["exceptionType"] == "std::runtime_error", f"json: exception type {f['failure']}")
    check(fails["primaryMetric"]["score"] == "NaN", "json: a benchmark without results scores \"NaN\"")
check(read(paths["json"]).startswith('[\n    {\n        "jmhVersion" : '), "json: not JMH's tidy layout")

g = json.loads(read(paths["gbench.json"]))
names = {b["name"] for b in g["benchmarks"]}
check(f"Formats.param/kind:{NASTY}/mode:avgt" in names, f"gbench: names {sorted(names)}")
err = [b for b in g["benchmarks"] if b.get("error_occurred")]
check(len(err) == 1 and err[0]["name"] == "Formats.fails/mode:avgt", f"gbench: error rows {err}")
for key in ("date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "caches", "load_avg",
            "library_build_type"):
    check(key in g["context"], f"gbench: context has no {key}")
check(all(c["size"] > 0 and c["level"] > 0 for c in g["context"]["caches"]), f"gbench: caches {g['context']['caches']}")

for ext, delim in (("csv", ","), ("scsv", ";")):
    text = read(paths[ext])
    check(text.count("\r\n") == text.count("\n") and text.endswith("\r\n"), f"{ext}: lines must end in CRLF")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    check(rows[0] == ["Benchmark", "Mode", "Threads", "Samples", "Score", "Score Error (99.9%)", "Unit",
                      "Param: kind", "NUMA", "Allocator Options"], f"{ext}: header {rows[0]}")
    # The fork's own allocator decisions, on every row.
    check(all(r[8].startswith(("on", "off")) and r[9] for r in rows[1:]), f"{ext}: NUMA columns {rows[1:3]}")
    by_kind = {(r[0], r[7]): r for r in rows[1:]}
    row = by_kind.get(("Formats.param", NASTY))
    if check(row is not None, f"{ext}: no row for kind={NASTY}: {rows}"):
        check(float(row[4]) > 0 and "." in row[4] and row[3] == "3", f"{ext}: row {row}")
    failed = by_kind.get(("Formats.fails", ""))
    check(failed is not None and failed[4] == "NaN", f"{ext}: the failed benchmark's row {failed}")

tex = read(paths["tex"])
check(tex.startswith("\\begin{tabular}{r|l|rl}\n") and tex.endswith("\\end{tabular}\n"), f"latex: {tex[:80]}")
check("\\texttt{a b,\"c\";d\\_\\#\\{\\}}" in tex, f"latex: the parameter is not escaped:\n{tex}")
check("\\texttt{Formats.spin}" in tex, "latex: no Formats.spin row")

txt = read(paths["txt"])
check(txt.startswith("Benchmark") and "Formats.spin" in txt and "(kind)" in txt, f"text: {txt}")
check(txt in proc.stdout, "text: the file should be the console's summary table")

# ---- Start-up errors: exit 1, one line naming the path, nothing run ----
os.makedirs(os.path.join(work, "adir"))
with open(os.path.join(work, "afile"), "w") as f:
    f.write("x")
bad = [
    (["-rf", "xml"], "'xml'"),
    (["-rf", "json,nope"], "'nope'"),
    (["-rff", os.path.join(work, "missing", "r.json")], os.path.join(work, "missing", "r.json")),
    (["-rff", os.path.join(work, "adir")], "is a directory"),
    (["-rf", "json", "-rff", os.path.join(work, "afile", "r.json")], "is not a directory"),
]
if os.geteuid() == 0:
    bad.append((["-rf", "json", "-rff", "/sys/cmh-result.json"], "/sys/cmh-result.json"))
else:
    ro = os.path.join(work, "ro")
    os.makedirs(ro)
    os.chmod(ro, 0o500)
    bad.append((["-rf", "json", "-rff", os.path.join(ro, "r.json")], "Permission denied"))
for extra, expected in bad:
    p = run(args.bench, ["Formats.spin", "-f", "0"] + extra + QUICK, timeout=60, check_exit=1)
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    check(any(expected in line for line in lines), f"{extra}: stderr does not name {expected!r}:\n{p.stderr}")
    check("Iteration" not in p.stdout and "# Run progress" not in p.stdout, f"{extra}: something ran:\n{p.stdout}")

# ---- A host killed with SIGKILL mid-run leaves valid, incomplete files ----
killed = os.path.join(work, "killed")
host = subprocess.Popen([args.bench, "Formats.param|Formats.spin", "-f", "1", "-wi", "0", "-i", "4", "-r", "250ms",
                         "-rf", "json,csv,gbench", "-rff", killed], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
deadline = time.time() + 120
seen = 0


def files_agree():
    """The number of records once every format has been written for the same benchmarks (the
    writers run one after another, so a kill between them would compare different moments)."""
    try:
        n = len(json.loads(read(killed + ".json")))
        rows = list(csv.reader(io.StringIO(read(killed + ".csv"), newline="")))
        json.loads(read(killed + ".gbench.json"))
        return n if len(rows) == 1 + n else 0
    except (OSError, ValueError):
        return 0


while time.time() < deadline and seen == 0 and host.poll() is None:
    time.sleep(0.05)
    seen = files_agree()
still_running = host.poll() is None
os.killpg(host.pid, signal.SIGKILL)  # the host and its fork: the session started above
host.wait()
check(still_running, "kill -9: the run finished before the first result file appeared; nothing was tested")
records = json.loads(read(killed + ".json"))
check(1 <= len(records) < 3, f"kill -9: expected the completed benchmarks only, got {len(records)}")
check(all(r["cmh"]["runComplete"] is False for r in records), "kill -9: records must say runComplete: false")
rows = list(csv.reader(io.StringIO(read(killed + ".csv"), newline="")))
check(len(rows) == 1 + len(records), f"kill -9: csv has {len(rows) - 1} rows for {len(records)} records")
check(json.loads(read(killed + ".gbench.json"))["context"]["run_complete"] == "false", "kill -9: gbench context")

# ---- Incremental writes through the writers, without a host ----
partial = os.path.join(work, "partial.json")
run(args.driver, ["json", partial, "--stop-after", "2"], check_exit=0)
records = json.loads(read(partial))
check(len(records) == 2 and all(not r["cmh"]["runComplete"] for r in records), f"driver: {len(records)} records")

# ---- Numbers ignore a comma-decimal locale ----
locales = os.path.join(work, "locales")
os.makedirs(locales)
made = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", os.path.join(locales, "de_DE.UTF-8")],
                      capture_output=True).returncode == 0
if made:
    env = {"LOCPATH": locales, "LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"}
    c_csv, de_csv = os.path.join(work, "c.csv"), os.path.join(work, "de.csv")
    run(args.driver, ["csv", c_csv], check_exit=0)
    run(args.driver, ["csv", de_csv], env=env, check_exit=0)
    check(read(c_csv) == read(de_csv), "locale: the driver's CSV differs under de_DE.UTF-8")
    loc_csv = os.path.join(work, "locale-run.csv")
    run(args.bench, ["Formats.spin", "-f", "1", "-rf", "csv", "-rff", loc_csv] + QUICK, env=env, timeout=120,
        check_exit=0)
    row = list(csv.reader(io.StringIO(read(loc_csv), newline="")))[1]
    check("." in row[4] and "," not in row[4], f"locale: score {row[4]!r} under de_DE.UTF-8")
else:
    print("localedef could not build de_DE.UTF-8; locale check skipped")

done()

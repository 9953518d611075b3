"""The report and the result files are never silently lost (issue 16, findings 5,
6 and 12): a reader that closes the pipe (`| head -3`) stops the printing but the
run goes on and writes its result file; a closed stdout does not make the lock
file the report; a write error on the report (-o /dev/full) is exit 2; -rff
/dev/stdout with stdout a file or a pipe is written through it, never renamed
over it; -o X -rff X is a command-line error."""
import os
import subprocess

import cmhtest as t
from host_common import EXE, SHORT, load_json, no_crash, run, tmp_path

# Iterations long enough that the host still has most of its report to write when
# the reader has gone (so that main, without the fix, does die of SIGPIPE).
TWO = ["Host.ok", "-bm", "thrpt,avgt", "-f", "1", "-wi", "0", "-i", "3", "-r", "100ms"]

# | head -3: the host must not die of SIGPIPE, and the result file must be there.
json_path = tmp_path("head.json")
proc = subprocess.Popen([EXE] + TWO + ["-rf", "json", "-rff", json_path], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
for _ in range(3):
    proc.stdout.readline()
proc.stdout.close()  # as head does after its third line
err = proc.stderr.read().decode(errors="replace")
proc.wait(timeout=t.guard(120))
t.check(proc.returncode == 0, f"| head -3: exit {proc.returncode} (141/-13 is SIGPIPE), expected 0\n{err[-2000:]}")
records = load_json(json_path, "| head -3")
t.check(records is not None and len(records) == 2 and all(r["cmh"]["runComplete"] for r in records),
        f"| head -3: the result file does not hold the whole run: {records!r:.300}")

# >&-: the report must not go into the run lock file (open() would take fd 1).
lock = tmp_path("cmh.lock")
if os.path.exists(lock):
    os.truncate(lock, 0)
json_path = tmp_path("closed-stdout.json")
proc = subprocess.run(["sh", "-c", 'exec "$0" "$@" >&-', EXE] + SHORT + ["Host.ok", "-rf", "json", "-rff", json_path],
                      capture_output=True, text=True, timeout=t.guard(120), stdin=subprocess.DEVNULL)
t.check(proc.returncode == 0, f">&-: exit {proc.returncode}\n{proc.stderr[-2000:]}")
with open(lock, errors="replace") as f:
    locked_text = f.read()
t.check("# Benchmark" not in locked_text and "Host.ok" not in locked_text,
        f">&-: the report was written into the lock file {lock}:\n{locked_text[:500]}")
records = load_json(json_path, ">&-")
t.check(records is not None and [r["benchmark"] for r in records] == ["Host.ok"], f">&-: wrong result file {records!r:.300}")

# -o /dev/full: the report is lost, which must not be exit 0; the result file is still written.
json_path = tmp_path("full.json")
proc = run(["Host.ok"] + SHORT + ["-o", "/dev/full", "-rf", "json", "-rff", json_path], expect=2)
t.check("the report could not be written to /dev/full" in proc.stderr and "No space left" in proc.stderr,
        f"-o /dev/full: no error message\n{proc.stderr[-1500:]}")
t.check(load_json(json_path, "-o /dev/full") is not None, "-o /dev/full: no result file")

# -rff /dev/full: a result file that cannot be written is an error, exit 2.
proc = run(["Host.ok"] + SHORT + ["-rf", "json", "-rff", "/dev/full"], expect=2)
t.check("cannot write result file '/dev/full'" in proc.stdout + proc.stderr, "-rff /dev/full: no error message")

# -rff /dev/stdout > file: the report and then the JSON, both in the file.
out_path = tmp_path("stdout-file.txt")
with open(out_path, "w") as out:
    proc = subprocess.run([EXE, "Host.ok"] + SHORT + ["-rf", "json", "-rff", "/dev/stdout"], stdout=out,
                          stderr=subprocess.PIPE, text=True, timeout=t.guard(120), stdin=subprocess.DEVNULL)
with open(out_path) as f:
    text = f.read()
t.check(proc.returncode == 0, f"-rff /dev/stdout > file: exit {proc.returncode}\n{proc.stderr[-1500:]}")
t.check("# Benchmark: Host.ok" in text and "Total time" in text, f"-rff /dev/stdout > file: the report is gone:\n{text[:800]}")
t.check('"benchmark" : "Host.ok"' in text, f"-rff /dev/stdout > file: no JSON in the file:\n{text[-800:]}")
t.check(text.count('"benchmark" : "Host.ok"') == 1, "-rff /dev/stdout > file: the JSON is written more than once")

# -rff /dev/stdout | reader: written through the pipe, not refused.
proc = run(["Host.ok"] + SHORT + ["-rf", "json", "-rff", "/dev/stdout"], expect=0)
t.check('"benchmark" : "Host.ok"' in proc.stdout, f"-rff /dev/stdout | pipe: no JSON\n{proc.stdout[-800:]}{proc.stderr[-800:]}")
no_crash(proc, "-rff /dev/stdout | pipe")

# -o X -rff X: the result file would replace the report.
same = tmp_path("same.txt")
proc = run(["Host.ok"] + SHORT + ["-o", same, "-rf", "text", "-rff", same], expect=1)
t.check("Error parsing command line" in proc.stderr and "same file" in proc.stderr,
        f"-o X -rff X: no command-line error\n{proc.stderr[-800:]}")
proc = run(["Host.ok"] + SHORT + ["-o", same, "-rf", "json,text", "-rff", tmp_path("same.json")], expect=1)
t.check("same file" in proc.stderr, f"-o X.txt -rf json,text -rff X.json (text goes to X.txt): not refused\n{proc.stderr[-800:]}")

t.done()

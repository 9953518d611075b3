"""cmh-history end to end, on SQLite or (--postgres) on a PostgreSQL server of the
test's own: synthetic series built from a real result file of cmh-compare-bench.
- a 12 % step at a known commit in one benchmark is found there and only there, and
  check gates that commit (exit 1) and not its neighbours (exit 0);
- a flat noisy series gives no change point;
- a change of compiler gives a new segment, not a regression;
- Java JMH and Google Benchmark files are read too; adding again adds nothing;
- bad input (truncated JSON, a non-result file, a store of a newer schema, an
  unreachable server) gives one line, exit 2, and the store unchanged."""
import json
import os
import subprocess
import sys
import tempfile

from cmhtest import run, check, fail, done, guard
from history_common import (parse_args, under_pg_virtualenv, Store, real_result_file, write_series, add,
                            history_json)

args = parse_args()
under_pg_virtualenv(args)
tmp = tempfile.mkdtemp(prefix="cmh-history-")
H = os.path.abspath(args.history)
records = real_result_file(args.bench, tmp)
check(len(records) == 2, f"the real file: 2 records expected, got {len(records)}")
names = [f"{r['benchmark']} (extra={r['params']['extra']})" for r in records]

# ---- A step of +12 % (avgt: slower) at commit c10, in record 0 only; 1 % noise.
store = Store(args, tmp, "step")
files = write_series(tmp, "step", records, 20, lambda k, i: 1.12 if (i == 0 and k >= 10) else 1.0)
for k, f in enumerate(files):
    add(H, store, f, f"c{k:02d}", k)
changes = history_json(H, store, "changes")
print("step:", json.dumps(changes, indent=1)[:1500])
check(len(changes) == 1, f"step: exactly one change point expected, got {len(changes)}")
if changes:
    c = changes[0]
    check(c["firstCommit"] == "c10" and c["lastCommitBefore"] == "c09", f"step: at c09 -> c10: {c}")
    check(c["benchmark"] == records[0]["benchmark"] and c["params"] == records[0]["params"], f"step: series {c}")
    check(c["direction"] == "regression" and c["metric"] == "score", f"step: a regression of the score: {c}")
    check(0.09 < c["effect"] < 0.15, f"step: effect near +12 %: {c['effect']}")
    check(c["interval"] and c["interval"][0] < c["effect"] < c["interval"][1], f"step: interval {c['interval']}")
    check(c["p"] is not None and c["p"] < 0.001, f"step: p {c['p']}")
    for key in ("benchmark", "params", "metric", "firstCommit", "lastCommitBefore", "direction", "effect", "interval", "p"):
        check(key in c, f"changes --json: no {key!r}")
text = run(H, ["changes", "--db", store.url], check_exit=0).stdout.strip().splitlines()
check(len(text) == 1 and records[0]["benchmark"] in text[0] and "c09" in text[0] and "c10" in text[0]
      and text[0].startswith("regression"), f"changes text: one line with the name and both commits: {text}")
run(H, ["check", "--db", store.url, "--commit", "c10"], check_exit=1)
for commit in ("c09", "c11", "c19"):
    run(H, ["check", "--db", store.url, "--commit", commit], check_exit=0)
since = history_json(H, store, "changes", "--since", "c11")
check(since == [], f"changes --since c11: the c10 change is before it: {since}")

# ---- Idempotent: adding the same files again writes nothing.
before = store.counts()
for k, f in enumerate(files[:3]):
    out = add(H, store, f, f"c{k:02d}", k).stdout
    check("nothing new" in out, f"re-add: {out!r}")
check(store.counts() == before, f"re-add changed the store: {before} -> {store.counts()}")

# ---- Flat, noisier (3 % per value): no change point.
flat = Store(args, tmp, "flat")
for k, f in enumerate(write_series(tmp, "flat", records, 16, lambda k, i: 1.0, noise=0.03, seed=7)):
    add(H, flat, f, f"f{k:02d}", k)
flat_changes = history_json(H, flat, "changes")
check(flat_changes == [], f"flat: no change point expected: {flat_changes}")
run(H, ["check", "--db", flat.url, "--commit", "f15"], check_exit=0)

# ---- A new compiler at e06, with a 12 % step at the same time: a segment, not a regression.
env = Store(args, tmp, "env")
for k, f in enumerate(write_series(tmp, "env", records, 12, lambda k, i: 1.12 if k >= 6 else 1.0,
                                   compiler_at=lambda k: "g++ 13.1 (synthetic)" if k >= 6 else None)):
    add(H, env, f, f"e{k:02d}", k)
env_changes = history_json(H, env, "changes")
check(env_changes == [], f"environment change: no change point expected: {env_changes}")
run(H, ["check", "--db", env.url, "--commit", "e06"], check_exit=0)
series = history_json(H, env, "series")
check(len(series) == 4, f"environment change: 2 benchmarks x 2 segments expected: {[(s['benchmark'], s['runs']) for s in series]}")
check(all(s["runs"] == 6 for s in series), f"each segment has 6 runs: {[s['runs'] for s in series]}")
seg_text = run(H, ["series", "--db", env.url], check_exit=0).stdout
check("new segment: compiler:" in seg_text and "g++ 13.1 (synthetic)" in seg_text, f"series text: {seg_text}")

# ---- Java JMH's own files, and Google Benchmark JSON from cmh, read and kept.
formats = Store(args, tmp, "formats")
fixtures = [os.path.join(args.fixtures, f) for f in ("jmh-1.37-gc.json", "jmh-1.21-sample-base.json")]
gbench = os.path.join(tmp, "gbench.json")
run(args.bench, ["Compare.half", "-f", "2", "-wi", "1", "-i", "2", "-w", "20ms", "-r", "40ms", "-rf", "gbench",
                 "-rff", gbench], timeout=120, check_exit=0)
add(H, formats, fixtures[0], "j1", 0, extra=["--tag", "jdk=17"])
add(H, formats, fixtures[1], "j2", 1)
add(H, formats, gbench, "g1", 2)
listed = history_json(H, formats, "series", "--metric", "all")
benchmarks = {s["benchmark"] for s in listed}
check("org.sample.TabBench.inline" in benchmarks and any(b.startswith("Compare.half") for b in benchmarks),
      f"JMH and gbench files read: {sorted(benchmarks)}")
check(any(s["metric"] == "alloc.rate.norm" for s in listed), "JMH's gc.alloc.rate.norm kept as alloc.rate.norm")
raw = formats.sql("SELECT raw FROM metrics WHERE metric = 'score' AND result_id IN "
                  "(SELECT result_id FROM results WHERE benchmark = 'org.sample.TabBench.inline') LIMIT 1")
check(raw.startswith("[[") and raw.count("[") >= 3, f"raw per-fork, per-iteration data kept: {raw[:80]}")
forks = formats.sql("SELECT forks FROM results WHERE benchmark = 'org.sample.TabBench.inline' LIMIT 1")
check(forks.strip().splitlines()[0] == "2", f"fork count kept: {forks}")
envs = store.sql("SELECT description FROM environments LIMIT 1")
check('"compiler"' in envs and '"cpuModel"' in envs and '"kernel"' in envs, f"environment kept: {envs[:200]}")
flags = store.sql("SELECT disturbed FROM results LIMIT 1")
check(flags.startswith("[[") and ("false" in flags or "true" in flags), f"disturbance flags kept: {flags[:80]}")

# ---- --commit and --branch default to the git repository add runs in.
repo = os.path.join(tmp, "repo")
os.makedirs(repo)
git_env = dict(os.environ, GIT_CEILING_DIRECTORIES=tmp, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
for cmd in (["init", "-q", "-b", "topic"], ["commit", "-q", "--allow-empty", "-m", "x"]):
    subprocess.run(["git", *cmd], cwd=repo, env=git_env, check=True, timeout=guard(60))
head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, env=git_env, capture_output=True, text=True).stdout.strip()
gitstore = Store(args, tmp, "git")
proc = subprocess.run([H, "add", "--db", gitstore.url, files[0]], cwd=repo, env=git_env, capture_output=True, text=True,
                      timeout=guard(60))
check(proc.returncode == 0 and head in proc.stdout, f"add in a repository: --commit is HEAD ({head}): {proc.stdout!r} {proc.stderr!r}")
check(gitstore.sql("SELECT commit_sha || ' ' || branch FROM runs") == head + " topic", "commit and branch from git")
outside = os.path.join(tmp, "outside")
os.makedirs(outside)
proc = subprocess.run([H, "add", "--db", gitstore.url, files[1]], cwd=outside, env=git_env, capture_output=True,
                      text=True, timeout=guard(60))
check(proc.returncode == 2 and "--commit" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1,
      f"add outside a repository without --commit: {proc.returncode} {proc.stderr!r}")

# ---- Usage: -h, and bad command lines (one line, exit 2).
usage = run(H, ["--help"], check_exit=0).stdout
check(all(w in usage for w in ("add", "changes", "check", "report", "export", "--db", "--min-effect")), "-h text")
for bad in (["frobnicate"], ["add"], ["check"], ["changes", "--bogus"], ["add", "--time", "yesterday", files[0]],
            ["export", "--format", "csv"], ["changes", "--min-effect", "x%"]):
    proc = run(H, bad, check_exit=2)
    check(len(proc.stderr.strip().splitlines()) == 1, f"cmh-history {' '.join(bad)}: one line: {proc.stderr!r}")

# ---- Bad input: one line, exit 2, the store unchanged.
truncated = os.path.join(tmp, "truncated.json")
open(truncated, "w").write(open(files[0]).read()[:500])
foreign = os.path.join(tmp, "foreign.json")
open(foreign, "w").write('{"name": "not a result file"}')
good = os.path.join(tmp, "good.json")
open(good, "w").write(open(files[5]).read().replace('"benchmark" : "', '"benchmark" : "X'))
before = store.counts()
for bad in ([truncated], [foreign], [good, truncated]):
    proc = run(H, ["add", "--db", store.url, "--commit", "bad", *bad], check_exit=2)
    lines = proc.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith("cmh-history: "), f"bad file {bad}: one line: {proc.stderr!r}")
check(store.counts() == before, f"a bad file changed the store: {before} -> {store.counts()}")
store.sql("UPDATE cmh_history_schema SET version = 99")
before = store.counts()
for command in (["add", "--commit", "new", files[6]], ["changes"], ["check", "--commit", "c10"], ["report", "-o",
                os.path.join(tmp, "t.html")]):
    proc = run(H, [command[0], "--db", store.url] + command[1:], check_exit=2)
    lines = proc.stderr.strip().splitlines()
    check(len(lines) == 1 and "newer" in lines[0], f"newer schema, {command[0]}: {proc.stderr!r}")
check(store.counts() == before, f"a newer store was changed: {before} -> {store.counts()}")
for url in ("postgresql://cmh@127.0.0.1:1/nothing", "postgresql://cmh@127.0.0.1:1/nothing?connect_timeout=3"):
    proc = run(H, ["add", "--db", url, "--commit", "x", files[0]], check_exit=2, timeout=60)
    lines = proc.stderr.strip().splitlines()
    check(len(lines) == 1 and "cannot connect" in lines[0], f"unreachable PostgreSQL: {proc.stderr!r}")
proc = run(H, ["changes", "--db", os.path.join(tmp, "absent.sqlite")], check_exit=2)
check(not os.path.exists(os.path.join(tmp, "absent.sqlite")), "changes created a store")
if args.postgres:
    # An empty URL: everything from libpq's PG* environment (pg_virtualenv's database).
    run(H, ["add", "--db", "postgresql://", "--commit", "pgenv", files[0]], check_exit=0)
    check(Store.counter > 0 and "pgenv" in subprocess.run(["psql", "-X", "-At", "-c", "SELECT commit_sha FROM runs"],
                                                         capture_output=True, text=True).stdout,
          "postgresql:// did not use the PG* environment")
done()

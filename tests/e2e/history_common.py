"""Shared by the cmh-history end-to-end tests: the arguments, a real result file made
by cmh-compare-bench, synthetic series built from it (the same file re-scaled run by
run, with seeded noise), and the store under test: a SQLite file, or a PostgreSQL
database of a throw-away server that pg_virtualenv starts for the test itself."""
import argparse
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

from cmhtest import run, fail, check, skip, guard


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--history", required=True)
    ap.add_argument("--compare", required=False)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--postgres", action="store_true", help="run against PostgreSQL (pg_virtualenv)")
    return ap.parse_args()


def under_pg_virtualenv(args):
    """--postgres: re-runs this script inside pg_virtualenv (a server of its own in a
    temporary directory, -t, also as root; its PG* variables point at it), unless that
    has been done. Skips (77) only when PostgreSQL's server is not installed."""
    if not args.postgres or os.environ.get("CMH_HISTORY_PG_INSIDE"):
        return
    exe = shutil.which("pg_virtualenv")
    if exe is None:
        skip("pg_virtualenv is not installed (scripts/bootstrap installs postgresql-common)")
    env = dict(os.environ, CMH_HISTORY_PG_INSIDE="1")
    proc = subprocess.run([exe, "-t", sys.executable] + sys.argv, env=env, timeout=guard(600),
                          stdin=subprocess.DEVNULL)
    sys.exit(proc.returncode)


class Store:
    """One empty store: a SQLite file in `tmp`, or a fresh database on the test's server."""
    counter = 0

    def __init__(self, args, tmp, name):
        self.postgres = args.postgres
        if self.postgres:
            Store.counter += 1
            self.dbname = f"cmh_{name}_{Store.counter}"
            proc = subprocess.run(["createdb", self.dbname], capture_output=True, text=True, timeout=guard(60))
            if proc.returncode != 0:
                fail(f"createdb {self.dbname}: {proc.stderr}")
            self.url = "postgresql:///" + self.dbname  # host, port, user, password: libpq's PG* environment
        else:
            self.url = os.path.join(tmp, name + ".sqlite")

    def sql(self, statement):
        """Runs one statement with the server's own client; returns its rows as text."""
        if self.postgres:
            proc = subprocess.run(["psql", "-X", "-q", "-At", "-d", self.dbname, "-c", statement],
                                  capture_output=True, text=True, timeout=guard(60))
        else:
            proc = subprocess.run(["sqlite3", self.url, statement], capture_output=True, text=True,
                                  timeout=guard(60))
        if proc.returncode != 0:
            fail(f"{statement}: {proc.stderr.strip()}")
        return proc.stdout.strip()

    def counts(self):
        """The rows of every table: what 'the store is unchanged' is checked on."""
        tables = ("cmh_history_schema", "runs", "files", "environments", "results", "metrics")
        return self.sql("SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t})" for t in tables))  # one client call


def real_result_file(bench, tmp):
    """A real cmh JSON file: Compare.work, two parameter points, three forks each."""
    path = os.path.join(tmp, "real.json")
    run(bench, ["Compare.work", "-p", "extra=0,20", "-f", "3", "-wi", "1", "-i", "4", "-w", "20ms", "-r", "40ms",
                "-rf", "json", "-rff", path], timeout=180, check_exit=0)
    return json.load(open(path, encoding="utf-8"))


def synthetic_run(records, factor_of, rng, noise, compiler=None):
    """The real records (names, parameters, modes, forks x iterations, environment,
    disturbance flags), each primary value replaced by the record's real score times
    factor_of(record index) times per-value noise (1 +- noise, uniform, seeded). The
    real values themselves are not kept: their spread is this machine's load of the
    moment, which would make what the test sees depend on it."""
    out = copy.deepcopy(records)
    for i, rec in enumerate(out):
        pm = rec["primaryMetric"]
        level = pm["score"] * factor_of(i)
        values = []
        for fork in pm["rawData"]:
            for k in range(len(fork)):
                fork[k] = level * (1 + rng.uniform(-noise, noise))
                values.append(fork[k])
        pm["score"] = sum(values) / len(values)
        pm["scoreError"] = level * noise
        if compiler is not None:
            rec["cmh"]["compiler"] = compiler
    return out


def write_series(tmp, name, records, n, factor_at, noise=0.01, seed=1, compiler_at=None):
    """n result files c00.json ... named by commit; run k's factor for record i is
    factor_at(k, i); compiler_at(k) gives a compiler to write instead of the real one."""
    rng = random.Random(seed)
    folder = os.path.join(tmp, name)
    os.makedirs(folder, exist_ok=True)
    files = []
    for k in range(n):
        compiler = compiler_at(k) if compiler_at else None
        doc = synthetic_run(records, lambda i: factor_at(k, i), rng, noise, compiler)
        path = os.path.join(folder, f"c{k:02d}.json")
        json.dump(doc, open(path, "w", encoding="utf-8"), indent=1)
        files.append(path)
    return files


def add(history, store, path, commit, k, branch="main", expect=0, extra=()):
    return run(history, ["add", "--db", store.url, "--commit", commit, "--branch", branch,
                         "--time", f"2026-03-{1 + k // 24:02d}T{k % 24:02d}:00:00Z", *extra, path],
               check_exit=expect)


def history_json(history, store, command, *more, expect=0):
    proc = run(history, [command, "--db", store.url, "--json", *more], check_exit=expect)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        fail(f"cmh-history {command}: not JSON:\n{proc.stdout[:2000]}\n{proc.stderr[:2000]}")
        return []

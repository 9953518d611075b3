"""Helpers of the host tests (host_*.py, issue 16): the host-fault executable and
short runs of it. Every run is marked through the environment (as in
fork_common.py), so that a test can prove nothing it started outlived it."""
import json
import os
import sys
import uuid

import cmhtest as t
from fork_common import check_no_children

EXE = sys.argv[1]
TMP = os.environ.get("TMPDIR", "/tmp")
SHORT = ["-f", "1", "-wi", "0", "-i", "1", "-r", "10ms"]


def tmp_path(name):
    return os.path.join(TMP, name)


def run(args, expect=None, env=None, exe=None, timeout=120):
    mark = uuid.uuid4().hex
    proc = t.run(exe or EXE, args, timeout=timeout, env=dict(env or {}, CMH_TEST_MARK=mark), check_exit=expect)
    check_no_children(mark, " ".join(args))
    return proc


def load_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        t.fail(f"{what}: {path} is not a valid JSON file: {e}")
        return None


def no_crash(proc, what):
    """The host itself neither crashed nor printed a trace."""
    out = proc.stdout + proc.stderr
    t.check(proc.returncode >= 0, f"{what}: the host died of signal {-proc.returncode}\n{out[-2000:]}")
    t.check("terminate called" not in out and "Traceback" not in out and "runtime error" not in out,
            f"{what}: the host crashed\n{out[-2000:]}")

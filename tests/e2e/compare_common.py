"""Shared by the cmh-compare end-to-end tests: the command-line arguments, and running
cmh-compare with --format json to read its verdicts back."""
import argparse
import json

from cmhtest import run, fail


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--fixtures", required=True)
    return ap.parse_args()


def compare_json(exe, args, expect_exit):
    """Runs cmh-compare --format json ARGS, checks the exit status, returns the document."""
    proc = run(exe, ["--format", "json"] + list(args), check_exit=expect_exit)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        fail(f"cmh-compare {' '.join(args)}: output is not JSON:\n{proc.stdout[:2000]}\n{proc.stderr[:2000]}")
        return {"pairs": []}


def metrics_of(doc, benchmark_suffix):
    """{metric key: metric dict} of the first benchmark whose name ends with the suffix."""
    for pair in doc.get("pairs", []):
        for b in pair["benchmarks"]:
            if b["benchmark"].endswith(benchmark_suffix):
                return {m["key"]: m for m in b["metrics"]}
    return {}


def spread(values):
    """How far identical runs' values are apart: max / min - 1 (0.05 = 5 %)."""
    values = [v for v in values if v > 0]
    return max(values) / min(values) - 1 if len(values) >= 2 else float("inf")


def fork_means(path, metric):
    """The per-fork means of a secondary metric (JMH JSON rawData), of every record."""
    with open(path) as f:
        doc = json.load(f)
    means = []
    for rec in doc:
        raw = rec.get("secondaryMetrics", {}).get(metric, {}).get("rawData", [])
        means += [sum(fork) / len(fork) for fork in raw if fork]
    return means

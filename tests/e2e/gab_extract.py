"""A reimplementation, for the tests, of how github-action-benchmark reads two of its
input formats: `tool: 'jmh'` (extractJmhResult) and `tool: 'googlecpp'`
(extractGoogleCppResult). It follows src/extract.ts of
benchmark-action/github-action-benchmark at commit 04dcc2c41a0add41e0fa82c268ae40952fcd8be4
(the v1 line), written from reading that source, not copied:

- the file goes through JavaScript's JSON.parse, which rejects what Python's json
  accepts beyond strict JSON (bare NaN / Infinity / -Infinity): parse_strict() refuses them;
- jmh: the document is an array; each record gives name = benchmark, value =
  primaryMetric.score, unit = primaryMetric.scoreUnit and an "extra" text made from
  measurementIterations, forks and threads (params are not part of the name);
- googlecpp: every row of "benchmarks" (aggregates included) gives name = name,
  value = real_time, unit = time_unit + "/iter", extra from iterations, cpu_time,
  time_unit and threads.
The action then stores the values and compares each with the previous run's value of
the same name; a value that is not a number breaks its chart and its alert ratio. So
the checks here are what the action needs: strict JSON, and for every entry a string
name, a finite number value, a unit string, and the extra fields present."""
import json
import math


class ExtractError(Exception):
    pass


def _reject_constant(name):
    raise ExtractError(f"JSON.parse would fail: bare {name} is not JSON")


def parse_strict(text):
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as e:
        raise ExtractError(f"JSON.parse would fail: {e}")


def _js_text(v):
    """How a template literal prints a JSON value: undefined when missing."""
    if v is None:
        return "undefined"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def extract_jmh(text):
    doc = parse_strict(text)
    if not isinstance(doc, list):
        raise ExtractError("jmh: json.map is not a function (the document is not an array)")
    out = []
    for b in doc:
        pm = b.get("primaryMetric")
        if not isinstance(pm, dict):
            raise ExtractError("jmh: b.primaryMetric is undefined")
        extra = (f"iterations: {_js_text(b.get('measurementIterations'))}\nforks: {_js_text(b.get('forks'))}\n"
                 f"threads: {_js_text(b.get('threads'))}")
        out.append({"name": b.get("benchmark"), "value": pm.get("score"), "unit": pm.get("scoreUnit"), "extra": extra})
    return out


def extract_googlecpp(text):
    doc = parse_strict(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise ExtractError("googlecpp: json.benchmarks.map is not a function")
    out = []
    for b in doc["benchmarks"]:
        unit = _js_text(b.get("time_unit")) + "/iter"
        extra = (f"iterations: {_js_text(b.get('iterations'))}\ncpu: {_js_text(b.get('cpu_time'))} "
                 f"{_js_text(b.get('time_unit'))}\nthreads: {_js_text(b.get('threads'))}")
        out.append({"name": b.get("name"), "value": b.get("real_time"), "unit": unit, "extra": extra})
    return out


def problems(entries):
    """What would break the action's storage, charts or comparisons, one line each."""
    found = []
    if not entries:
        found.append("no benchmark result was found")
    for e in entries:
        if not isinstance(e["name"], str) or not e["name"]:
            found.append(f"name is not a string: {e}")
        v = e["value"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            found.append(f"{e['name']}: value is not a finite number: {v!r}")
        if not isinstance(e["unit"], str) or "undefined" in e["unit"]:
            found.append(f"{e['name']}: unit {e['unit']!r}")
        if "undefined" in e["extra"]:
            found.append(f"{e['name']}: extra has a missing field: {e['extra']!r}")
    return found

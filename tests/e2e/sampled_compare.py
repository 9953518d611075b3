"""cmh-compare --flame end to end: Sampled.extra built without (cmh-sampled-before) and with
(cmh-sampled) one extra noinline call per op (multiply_chain), three forks each, both under
-prof flame:dir=. The comparison must name that call as the top change of cost per op,
significant beyond the fork-to-fork variance; write a self-contained differential flame graph
that renders in headless Chromium without console errors (screenshot saved); and put the
table and the graph (static SVG, no script) into --html. Skips (exit 77) where this machine
does not let a process sample itself."""
import argparse
import os
import re
import tempfile

import cmhtest as t
from sampled_common import check_self_contained, in_browser, skip_unless_sampling

# Three forks a side: Welch's t over the forks needs them to call a change significant.
RUN = ["Sampled.extra", "-f", "3", "-wi", "1", "-i", "2", "-w", "100ms", "-r", "150ms", "-rf", "json"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sampled", required=True)
    p.add_argument("--before", required=True)
    p.add_argument("--compare", required=True)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="flamediff-")
    sides = {}
    for name, exe in (("base", a.before), ("new", a.sampled)):
        d, j = os.path.join(work, name), os.path.join(work, name + ".json")
        proc = t.run(exe, RUN + ["-rff", j, "-prof", f"flame:dir={d}"], timeout=180)
        skip_unless_sampling(proc)
        t.check(proc.returncode == 0, f"{name} run: exit {proc.returncode}\n{proc.stdout[-2000:]}")
        sides[name] = (d, j)
    out, page = os.path.join(work, "diffs"), os.path.join(work, "compare.html")
    proc = t.run(a.compare, [sides["base"][1], sides["new"][1], "--flame", sides["base"][0], sides["new"][0],
                             "--flame-out", out, "--html", page], timeout=60)
    t.check(proc.returncode in (0, 1), f"cmh-compare: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    text = proc.stdout
    at = text.find("Where Sampled.extra changed")
    if not t.check(at >= 0, f"no flame differential in the output:\n{text[-3000:]}"):
        return t.done()
    rows = [line for line in text[at:].splitlines()[1:] if line.startswith("  ")]
    # rows[0] is the header; rows[1] the top change.
    t.check(len(rows) >= 2 and rows[1].lstrip().startswith("multiply_chain("),
            f"the extra call is not the top change:\n{text[at:at + 1500]}")
    if len(rows) >= 2:
        m = re.search(r"\s\+([0-9.]+)\s+[0-9.e-]+\s+more$", rows[1])
        t.check(m is not None and float(m.group(1)) > 0, f"the extra call's change is not significant:\n{rows[1]}")

    diff_page = os.path.join(out, "Sampled.extra.diff.html")
    if t.check(os.path.exists(diff_page), f"no differential page in {out}"):
        check_self_contained(diff_page, "the differential page")

        def checks(browser):
            legend = browser.evaluate("document.getElementById('legend') ? document.getElementById('legend').textContent : ''")
            t.check("more per op" in (legend or ""), "the differential legend is missing")
            shape = browser.evaluate("(function(){var b=document.getElementById('shape');b.click();return b.textContent;})()")
            t.check(shape == "Sized by: before", f"the before/after toggle: {shape!r}")

        in_browser(diff_page, checks, height=600)
    if t.check(os.path.exists(page), "no --html page"):
        html = open(page, encoding="utf-8").read()
        t.check('<section class="flamediff"' in html and "<svg class=\"flamegraph\"" in html and "multiply_chain" in html,
                "the --html page has no differential section")
        t.check("<script" not in html and "http://" not in html and "https://" not in html,
                "the --html page is not script-free and self-contained")
    t.done()


if __name__ == "__main__":
    main()

"""The -rf html run report with everything it can show, in headless Chromium: two benchmarks
of cmh-sampled, two forks, -prof perfasm, -prof flame and -prof alloc. Per benchmark: the
score in JMH's console precision, every iteration in run order (disturbed ones marked as
such, when the machine disturbed any), each fork's distribution, the exact B/op in full
(1,000,016, not 1e+06), the perfasm section and the flame section with its static graph.
The page runs no script, fetches nothing, and renders without console errors (screenshot
saved, path printed). Skips (exit 77) where sampling is not permitted; the browser part only
where chromium is absent."""
import argparse
import os
import re
import tempfile

import cmhtest as t
from sampled_common import check_self_contained, in_browser, skip_unless_sampling


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sampled", required=True)
    exe = p.parse_args().sampled
    work = tempfile.mkdtemp(prefix="report-")
    page = os.path.join(work, "run.html")
    proc = t.run(exe, ["Sampled.(division|allocate)$", "-f", "2", "-wi", "1", "-i", "3", "-w", "100ms", "-r", "150ms",
                       "-prof", "perfasm", "-prof", f"flame:dir={os.path.join(work, 'flames')}", "-prof", "alloc",
                       "-rf", "html", "-rff", page], timeout=240)
    skip_unless_sampling(proc)
    t.check(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    if not t.check(os.path.exists(page), "no report"):
        return t.done()
    html = check_self_contained(page, "-rf html")
    t.check("<script" not in html, "-rf html runs a script")
    t.check(re.search(r'class="scoreline">\d+\.\d{3} &plusmn; \d+\.\d{3}', html) is not None,
            "the score is not in JMH's console precision")
    t.check(">1,000,016<" in html, "the exact B/op is not printed in full (1,000,016)")
    # Sampled.allocate spends its time in memset, a library its body calls: not "absent".
    t.check("absent from the hot code" not in html, "a false 'absent' warning (library time is the benchmark's)")

    def checks(browser):
        count = lambda sel: browser.evaluate(f"document.querySelectorAll({sel!r}).length")
        found = {sel: count(sel) for sel in ("section.benchmark", "svg.timeline circle.iteration", "svg.forks rect.box",
                                             "section.cmh-perfasm", "section.cmh-perfasm table.pa-asm",
                                             "section.cmh-flame svg.flamegraph rect", "svg.timeline circle.disturbed",
                                             "p.warning")}
        print("DOM:", found)
        t.check(found["section.benchmark"] == 2, f"two benchmark sections: {found}")
        t.check(found["svg.timeline circle.iteration"] == 2 * 2 * 3, f"2 benchmarks x 2 forks x 3 iterations: {found}")
        t.check(found["svg.forks rect.box"] == 4, f"a box per fork and benchmark: {found}")
        t.check(found["section.cmh-perfasm"] == 2 and found["section.cmh-perfasm table.pa-asm"] >= 1,
                f"perfasm sections with a listing: {found}")
        t.check(found["section.cmh-flame svg.flamegraph rect"] >= 4, f"flame sections with their graph: {found}")
        # A disturbed iteration is marked, and said above the chart.
        if found["svg.timeline circle.disturbed"] > 0:
            t.check(found["p.warning"] > 0, f"disturbed iterations without their line: {found}")
        title = browser.evaluate("(function(){var c=document.querySelector('svg.timeline circle.iteration title');"
                                 "return c ? c.textContent : '';})()")
        t.check(re.match(r"fork 1, iteration 1: ", title or "") is not None, f"iteration tooltip: {title!r}")

    in_browser(page, checks, width=1100, height=900)
    t.done()


if __name__ == "__main__":
    main()

"""The HTML pages in a real browser, -rf html's and cmh-compare --html's. First -rf html
of a real run (two modes, sample mode's histogram, a parameter with two values, two
forks): a section per benchmark with its score chart (error bar, per-fork iteration
points), histograms, the parameter chart, secondaries, the environment and warnings.
Then cmh-compare --html: two short real runs of cmh-compare-bench
(the second with 20 % more work and one more allocation per op) are compared into one
self-contained page, which Debian's headless chromium loads from a file. The page must
render without console errors or exceptions, fetch nothing, hold one section per
benchmark with a ratio chart per metric (interval bar, ratio dot), the sample points,
the regression verdict and the runs' warnings, and give a screenshot (saved beside the
test's files, its path printed). Exit 77 (ctest: skipped) only when chromium is absent."""
import os
import struct
import sys
import tempfile

from cmhtest import run, check
from compare_common import parse_args
from chromium_cdp import Chromium, find_chromium
import cmhtest

args = parse_args()
exe = find_chromium()
if exe is None:
    print("chromium is not installed (scripts/bootstrap installs it): skipped")
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="cmh-compare-html-")
RUN = ["Compare.work", "-f", "3", "-wi", "1", "-i", "2", "-w", "50ms", "-r", "100ms", "-prof", "alloc", "-rf", "json"]
base, slower = os.path.join(tmp, "base.json"), os.path.join(tmp, "slower.json")
run(args.bench, RUN + ["-rff", base], timeout=120, check_exit=0)
run(args.bench, RUN + ["-p", "extra=20", "-p", "allocs=2", "-rff", slower], timeout=120, check_exit=0)
page = os.path.join(tmp, "report.html")
run(args.compare, [base, slower, "--ignore-param", "extra", "--ignore-param", "allocs", "--threshold", "5%",
                   "--html", page], check_exit=1)
html = open(page, encoding="utf-8").read()
for needle in ("http://", "https://", "<script", "<link", "<img", "@import", "url("):
    check(needle not in html, f"the page is not self-contained: it contains {needle!r}")

run_page = os.path.join(tmp, "run.html")
run(args.bench, ["Compare", "-bm", "avgt,sample", "-p", "extra=0,20", "-f", "2", "-wi", "1", "-i", "2", "-w", "50ms",
                 "-r", "100ms", "-prof", "alloc", "-rf", "html", "-rff", run_page], timeout=180, check_exit=0)
run_html = open(run_page, encoding="utf-8").read()
for needle in ("http://", "https://", "<script", "<link", "<img", "@import", "url("):
    check(needle not in run_html, f"-rf html is not self-contained: it contains {needle!r}")

browser = Chromium(exe)
try:
    browser.open("file://" + run_page)
    count = lambda sel: browser.evaluate(f"document.querySelectorAll({sel!r}).length")
    found = {sel: count(sel) for sel in ("section.benchmark", "svg.score", "svg.score line.errorbar",
                                         "svg.score circle.iteration", "svg.score line.forkmean", "svg.histogram rect.bin",
                                         "section.parameters svg.params rect.bar", "table.secondaries tr",
                                         "table.environment tr", "li.warning")}
    print("-rf html DOM:", found)
    # Compare.half and Compare.work x 2 values of extra, each in avgt and sample mode.
    check(found["section.benchmark"] == 6, f"-rf html: 6 benchmark sections expected: {found}")
    check(found["svg.score"] == 6 and found["svg.score line.errorbar"] >= 2, f"-rf html: score charts: {found}")
    check(found["svg.score line.forkmean"] == 12, f"-rf html: 2 forks x 6 benchmarks fork means: {found}")
    check(found["svg.score circle.iteration"] >= 12, f"-rf html: iteration points: {found}")
    check(found["svg.histogram rect.bin"] >= 3, f"-rf html: sample mode histograms: {found}")
    check(found["section.parameters svg.params rect.bar"] >= 4, f"-rf html: parameter charts: {found}")
    check(found["table.secondaries tr"] >= 6 and found["table.environment tr"] >= 5, f"-rf html: tables: {found}")
    line = browser.evaluate("document.querySelector('p.scoreline').textContent")
    check("±" in line, f"-rf html: score line without its error: {line!r}")
    check(browser.evaluate("performance.getEntriesByType('resource').length") == 0, "-rf html fetched something")
    errors = browser.errors()
    check(not errors, "-rf html console errors: " + "; ".join(errors))
    run_shot = browser.screenshot(os.path.join(tmp, "run.png"))
    print(f"-rf html screenshot: {run_shot}")
finally:
    browser.close()

browser = Chromium(exe)
try:
    browser.open("file://" + page)
    count = lambda sel: browser.evaluate(f"document.querySelectorAll({sel!r}).length")
    sections, ratios, bars, dots, points, rows = (count(s) for s in (
        "section.benchmark", "svg.ratio", "svg.ratio rect.ci", "svg.ratio circle.dot", "svg.samples circle.pt",
        "tr.metric"))
    print(f"DOM: {sections} benchmark sections, {rows} metric rows, {ratios} ratio charts, {bars} interval bars, "
          f"{dots} ratio dots, {points} sample points")
    check(sections == 1, f"expected 1 benchmark section, got {sections}")
    check(rows >= 4 and ratios == rows and dots == rows, f"a ratio chart per metric: rows {rows}, charts {ratios}, dots {dots}")
    check(bars >= 1, "no interval bar drawn")
    check(points >= 6, f"expected the 3 + 3 fork points of the score at least, got {points}")
    summary = browser.evaluate("document.getElementById('summary').textContent")
    check("Regression" in summary, f"summary: {summary!r}")
    verdicts = browser.evaluate("Array.from(document.querySelectorAll('td.regression')).map(e => e.textContent)")
    check(any("alloc.count" in v or "regression" in v for v in verdicts) and len(verdicts) >= 2,
          f"regression verdicts in the DOM: {verdicts}")
    width = browser.evaluate("document.querySelector('svg.ratio').getBoundingClientRect().width")
    check(width and width > 100, f"the ratio chart has no layout width: {width}")
    fetched = browser.evaluate("performance.getEntriesByType('resource').length")
    check(fetched == 0, f"the page fetched {fetched} resources")
    errors = browser.errors()
    check(not errors, "console errors: " + "; ".join(errors))
    shot = browser.screenshot(os.path.join(tmp, "report.png"))
finally:
    browser.close()

data = open(shot, "rb").read()
check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG")
w, h = struct.unpack(">II", data[16:24])
check(w >= 800 and h >= 300, f"screenshot {w}x{h}")
print(f"screenshot: {shot} ({w}x{h}, {len(data)} bytes)")
sys.exit(1 if cmhtest._failures else 0)

"""cmh-history report: the trend page of a store with a 12 % step and a compiler
change (synthetic series from a real cmh-compare-bench file), loaded in Debian's
headless chromium: one chart per series with its band and runs, the change point and
the new segment marked, the latest-changes table, links to a run's own HTML report
stored beside its result file; no console error, nothing fetched. Exit 77 (ctest:
skipped) only when chromium is absent."""
import os
import sys
import tempfile

from cmhtest import run, check, done
from chromium_cdp import Chromium, find_chromium, png_size
from history_common import parse_args, Store, real_result_file, write_series, add

args = parse_args()
exe = find_chromium()
if exe is None:
    print("chromium is not installed (scripts/bootstrap installs it): skipped")
    sys.exit(77)
tmp = tempfile.mkdtemp(prefix="cmh-history-report-")
H = args.history
records = real_result_file(args.bench, tmp)
store = Store(args, tmp, "trend")
# Record 0: +12 % from r10 on; both records: a new compiler from r14 on.
files = write_series(tmp, "trend", records, 20, lambda k, i: 1.12 if (i == 0 and k >= 10) else 1.0,
                     compiler_at=lambda k: "g++ 13.1 (synthetic)" if k >= 14 else None)
# A run's own HTML report beside its JSON (as -rf json and -rf html write them): the chart links it.
run(args.bench, ["Compare.half", "-f", "1", "-wi", "0", "-i", "1", "-w", "10ms", "-r", "10ms", "-rf", "html", "-rff",
                 files[3][:-len(".json")] + ".html"], timeout=120, check_exit=0)
for k, f in enumerate(files):
    add(H, store, f, f"r{k:02d}", k)
page = os.path.join(tmp, "trend.html")
out = run(H, ["report", "--db", store.url, "-o", page], check_exit=0).stdout
check("2 chart(s), 1 change point(s)" in out, f"report: {out!r}")
html = open(page, encoding="utf-8").read()
for needle in ("http://", "https://", "<script", "<link", "<img", "@import", "url("):
    check(needle not in html, f"the page is not self-contained: it contains {needle!r}")

browser = Chromium(exe)
try:
    browser.open("file://" + page)
    count = lambda sel: browser.evaluate(f"document.querySelectorAll({sel!r}).length")
    found = {sel: count(sel) for sel in ("section.chart", "svg.trend", "svg.trend circle.run", "svg.trend .band",
                                         "g.change.regression", "line.segment", "table#latest tr.change",
                                         "svg.trend a circle.run")}
    print("DOM:", found)
    check(found["section.chart"] == 2 and found["svg.trend"] == 2, f"one chart per series: {found}")
    check(found["svg.trend circle.run"] == 40, f"20 runs x 2 charts: {found}")
    check(found["svg.trend .band"] >= 4, f"a band per segment: {found}")
    check(found["g.change.regression"] == 1, f"the change point marked: {found}")
    check(found["line.segment"] == 2, f"the new compiler marked on both charts: {found}")
    check(found["table#latest tr.change"] == 1, f"the latest-changes table: {found}")
    check(found["svg.trend a circle.run"] == 2, f"the run with its own report is linked on both charts: {found}")
    row = browser.evaluate("document.querySelector('table#latest tr.change').textContent")
    check("r09" in row and "r10" in row and "regression" in row, f"latest change row: {row!r}")
    title = browser.evaluate("document.querySelector('line.segment title').textContent")
    check("compiler" in title and "g++ 13.1" in title, f"segment title: {title!r}")
    width = browser.evaluate("document.querySelector('svg.trend').getBoundingClientRect().width")
    check(width and width > 300, f"the chart has no layout width: {width}")
    check(browser.evaluate("performance.getEntriesByType('resource').length") == 0, "the page fetched something")
    check(not browser.errors(), "console errors: " + "; ".join(browser.errors()))
    shot = browser.screenshot(os.path.join(tmp, "trend.png"))
finally:
    browser.close()
size = png_size(shot)
check(size and size[0] >= 800 and size[1] >= 300, f"screenshot {shot}: {size}")
print(f"screenshot: {shot} {size}")
done()

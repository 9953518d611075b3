"""Shared by the sampled_*.py tests (-prof perfasm, -prof flame, cmh-compare --flame)."""
import cmhtest as t
from chromium_cdp import Chromium, find_chromium

# What a page that works offline never contains.
FETCHES = ("http://", "https://", "<link", "<img", "@import", "url(", " src=")


def skip_unless_sampling(proc):
    """Exit 77 when the run said this machine does not let a process sample itself."""
    if "sampling is not permitted" in proc.stdout or "sampling is not possible" in proc.stdout:
        line = next((x for x in proc.stdout.splitlines() if "not run: sampling" in x), "")
        t.skip("this machine does not let a process sample itself: " + line)


def check_self_contained(path, what):
    """The page at `path` fetches nothing; returns its text."""
    html = open(path, encoding="utf-8").read()
    for needle in FETCHES:
        t.check(needle not in html, f"{what} is not self-contained: it contains {needle!r}")
    return html


def in_browser(path, checks, width=1200, height=700):
    """Opens `path` in headless Chromium, runs checks(browser), saves a screenshot beside it
    (path printed) and fails on console errors. Without chromium: says so and returns."""
    exe = find_chromium()
    if exe is None:
        print("chromium is not installed (scripts/bootstrap installs it): browser checks skipped")
        return
    browser = Chromium(exe, width=width, height=height)
    try:
        browser.open("file://" + path)
        checks(browser)
        print("screenshot:", browser.screenshot(path + ".png"))
        t.check(not browser.errors(), f"{path}: console errors: {browser.errors()}")
    finally:
        browser.close()

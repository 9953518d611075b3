"""-prof flame end to end, on cmh-sampled (tests/e2e/sampled/sampled_benchmarks.cpp):
- -prof flame:dir=D on Sampled.division, two forks: the folded file is valid (frames root
  first, the benchmark's name as root, a count per line), the noinline division function
  carries most samples, the speedscope file has one profile per fork and each fork's op
  count, the HTML is self-contained (no network reference), and it renders in headless
  Chromium without console errors, with search and click-to-zoom working (screenshot
  saved beside the files, its path printed);
- unwind=fp on this executable built without frame pointers: the lost frames are said;
- flame:alloc on Sampled.allocate (1,000,016 bytes per op): the total is the exact B/op and
  the heaviest stack ends in the benchmark's operator new, with no allocator frames below.
Skips (exit 77) where this machine does not let a process sample itself; the browser part
is skipped (not failed) only where chromium is absent."""
import argparse
import json
import os
import re
import tempfile

import cmhtest as t
from sampled_common import check_self_contained, in_browser, skip_unless_sampling

QUICK = ["-wi", "1", "-i", "3", "-w", "100ms", "-r", "200ms"]


def args():
    p = argparse.ArgumentParser()
    p.add_argument("--sampled", required=True)
    return p.parse_args()


def main():
    exe = args().sampled
    work = tempfile.mkdtemp(prefix="flame-")
    out = os.path.join(work, "flames")
    proc = t.run(exe, ["Sampled.division", "-f", "2", "-prof", f"flame:dir={out}"] + QUICK, timeout=180)
    skip_unless_sampling(proc)
    t.check(proc.returncode == 0, f"flame run: exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    t.check('Secondary result "Sampled.division:flame":' in proc.stdout, f"no flame summary\n{proc.stdout[-3000:]}")
    t.check(re.search(r"Stacks: (DWARF unwinding|frame pointers)", proc.stdout) is not None,
            "the summary does not say how stacks were unwound")

    folded_path = os.path.join(out, "Sampled.division.folded")
    if not t.check(os.path.exists(folded_path), f"no folded file in {out}: {os.listdir(out) if os.path.isdir(out) else []}"):
        return t.done()
    total = ours = 0
    for line in open(folded_path, encoding="utf-8"):
        m = re.match(r"^(.+) (\d+)\n$", line)
        if not t.check(m is not None, f"not a folded line: {line!r}"):
            continue
        frames, count = m.group(1).split(";"), int(m.group(2))
        t.check(frames[0] == "Sampled.division" and all(frames), f"bad frames in {line!r}")
        total += count
        if any(f.startswith("division_chain(") for f in frames):
            ours += count
    t.check(total > 0 and ours * 2 > total, f"division_chain has {ours} of {total} samples")

    speedscope = json.load(open(os.path.join(out, "Sampled.division.speedscope.json")))
    t.check(speedscope.get("$schema", "").endswith("file-format-schema.json"), "not a speedscope file")
    t.check(len(speedscope["profiles"]) == 2 and len(speedscope["cmh"]["forks"]) == 2, "not one profile per fork")
    for p in speedscope["profiles"]:
        t.check(p["type"] == "sampled" and len(p["samples"]) == len(p["weights"]), f"bad profile {p.get('name')}")
        t.check(all(0 <= i < len(speedscope["shared"]["frames"]) for s in p["samples"] for i in s), "frame index out of range")
    t.check(all(f["ops"] > 0 for f in speedscope["cmh"]["forks"]), "a fork without ops")

    page = os.path.join(out, "Sampled.division.html")
    check_self_contained(page, "the flame graph")

    def checks(browser):
        height = browser.evaluate("document.getElementById('cv').clientHeight")
        t.check(height and height > 30, f"the canvas has no height: {height}")
        matched = browser.evaluate(
            "(function(){var q=document.getElementById('q');q.value='division_chain';"
            "q.dispatchEvent(new Event('input'));return document.getElementById('matched').textContent;})()")
        m = re.search(r"matched: ([0-9.]+) %", matched or "")
        t.check(m is not None and float(m.group(1)) > 50, f"search: {matched!r}")
        # A click on the frame just above the root (the flame's second row from the bottom) zooms in.
        crumbs = browser.evaluate(
            "(function(){var c=document.getElementById('cv'),r=c.getBoundingClientRect();"
            "var e=new MouseEvent('click',{clientX:r.left+r.width*0.6,clientY:r.bottom-18*1.5,bubbles:true});"
            "c.dispatchEvent(e);return document.getElementById('crumbs').textContent;})()")
        t.check("zoomed: Sampled.division > " in (crumbs or ""), f"click-to-zoom: {crumbs!r}")
        browser.evaluate("document.getElementById('q').value='';"
                         "document.getElementById('q').dispatchEvent(new Event('input'));"
                         "document.getElementById('reset').click();")

    in_browser(page, checks)

    # Allocation flame graph: Sampled.allocate asks for exactly 1,000,016 bytes per op.
    alloc_dir = os.path.join(work, "alloc")
    proc = t.run(exe, ["Sampled.allocate", "-prof", f"flame:alloc;dir={alloc_dir}"] + QUICK, timeout=120, check_exit=0)
    m = re.search(r"Allocation flame graph: (\d+) allocation samples .*?, (\d+) B/op in all", proc.stdout)
    if t.check(m is not None, f"no allocation flame summary:\n{proc.stdout[-2500:]}"):
        t.check(int(m.group(1)) > 0 and 1_000_016 <= int(m.group(2)) <= 1_010_000,
                f"the allocation graph's total is not the exact B/op: {m.group(0)}")
    folded = os.path.join(alloc_dir, "Sampled.allocate.alloc.folded")
    if t.check(os.path.exists(folded), f"no {folded}"):
        lines = [line.rsplit(" ", 1) for line in open(folded, encoding="utf-8").read().splitlines()]
        top = max(lines, key=lambda x: int(x[1]))
        t.check(top[0].startswith("Sampled.allocate;") and "operator new" in top[0].split(";")[-1],
                f"the heaviest allocation stack does not end in the benchmark's operator new: {top}")
        t.check(not any("cmh::allocator::" in x[0] for x in lines), "allocator-internal frames in the stacks")
    check_self_contained(os.path.join(alloc_dir, "Sampled.allocate.alloc.html"), "the allocation flame graph")

    # Frame pointers on code built without them: stacks break, and the summary says so.
    if "Stacks: frame pointers" not in proc.stdout:
        fp = os.path.join(work, "fp")
        proc = t.run(exe, ["Sampled.division", "-prof", f"flame:dir={fp};unwind=fp"] + QUICK, timeout=120, check_exit=0)
        t.check("WARNING:" in proc.stdout and "lost frames" in proc.stdout,
                f"no lost-frames warning with unwind=fp:\n{proc.stdout[-2500:]}")
    t.done()


if __name__ == "__main__":
    main()

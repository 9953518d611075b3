"""The samples on the checked allocator (cmh-samples-checked: CMH_ALLOC_DEBUG's free-list,
double-free, page and region checks run as the benchmarks run), forked, with the options
that change the allocator's code paths at start-up and between iterations:
  - TAB pre-touched in many forks, the situation of issue 24 (a pre-touch store into live
    blocks left a cyclic free list; forks hung at start-up, or ran on a corrupted heap);
  - every sample group once, pre-touched, with DecayTime=0 (every free page purged at once).
A violated invariant aborts the fork with one `cmh-alloc: ...` line naming the check and
the page, which this test reports. TAB's exact B/op must hold on the checked allocator too."""
import os

import cmhtest as t

CHECKED = os.path.join(t.BUILD, "samples", "cmh-samples-checked")
if not os.path.exists(CHECKED):
    t.skip("cmh-samples-checked is not built (CMH_BUILD_TESTS off)")


def clean(proc, what):
    """Exit 0, no allocator complaint, no failed fork."""
    out = proc.stdout + proc.stderr
    t.check(proc.returncode == 0, f"{what}: exit {proc.returncode}\n{out[-3000:]}")
    complaints = [l for l in out.splitlines() if "cmh-alloc:" in l]
    t.check(not complaints, f"{what}: the checked allocator complained:\n" + "\n".join(complaints[:5]))
    t.check("FAILED" not in out, f"{what}: a benchmark failed\n{out[-3000:]}")


# 1. Issue 24's command, pre-touched, ten forks per benchmark (20 fork starts), with a smaller
#    -Xms than TAB's own 1g so that the test stays quick; the bug hit any -Xms.
# One short warmup: the first iteration of TAB.separate also counts glibc's one-time thread
# set-up (about 2 B/op more), as the demo's warmup leaves out.
tab = t.run(CHECKED, ["TAB", "-f", "10", "-wi", "1", "-w", "20ms", "-i", "1", "-r", "50ms", "-prof", "alloc", "-to", "60s",
                      "-forkArgs", "-Xmx1g -Xms128m -XX:+AlwaysPreTouch"], timeout=600)
clean(tab, "TAB pre-touched, 10 forks")
rows = {r["Benchmark"]: r for r in t.summary_rows(tab.stdout)}
for name, low, high in (("TAB.inline", 1_000_000, 1_000_000), ("TAB.separate", 1_000_016, 1_000_016)):
    row = rows.get(f"{name}:alloc.rate.norm")
    if t.check(row is not None, f"{name}: no alloc.rate.norm row\n{tab.stdout[-2000:]}"):
        value = t.score(row["Score"])
        t.check(low <= value <= high, f"{name}: {value} B/op on the checked allocator, expected {low}")

# 2. Every sample group once, pre-touched, memory purged as soon as it is free (but
#    AllocatorChoice, whose forks run on other allocators, which take no bundled-heap option).
every = t.run(CHECKED, ["-e", "AllocatorChoice", "-f", "1", "-wi", "0", "-i", "1", "-w", "10ms", "-r", "10ms", "-to", "60s",
                        "-forkArgsAppend", "-Xms64m -XX:+AlwaysPreTouch -XX:DecayTime=0"], timeout=900)
clean(every, "every sample, pre-touched, DecayTime=0")
t.done()

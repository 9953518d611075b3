"""-prof perfasm end to end, on cmh-sampled (tests/e2e/sampled/sampled_benchmarks.cpp):
- Sampled.division (a chain of divisions in a noinline function), two forks, with -prof
  alloc beside (which must count 0 B/op: sampling allocates nothing in its windows): the first hot
  region is that function, a div instruction is among its hottest lines, the listing has
  source lines, the inline chain of the inlined step and a hot loop, the shares are summed over both forks, the report is in
  the -rf html page too;
- Sampled.dropped (the body is optimised away): the "absent from the hot code" warning;
- perf_event_open forbidden (cmh-deny-perf-events, a seccomp filter): one line says so, the
  benchmark's score and the result file are there as without the profiler;
- -f 0: the in-process trial is sampled too.
Skips (exit 77) where this machine does not let a process sample itself."""
import argparse
import json
import os
import re
import tempfile

import cmhtest as t
from sampled_common import skip_unless_sampling

QUICK = ["-wi", "1", "-i", "3", "-w", "100ms", "-r", "200ms"]


def args():
    p = argparse.ArgumentParser()
    p.add_argument("--sampled", required=True)
    p.add_argument("--deny-perf", required=True)
    return p.parse_args()


def asm_section(stdout, benchmark):
    """The text under Secondary result "<benchmark>:asm", up to the next blank-line-separated block."""
    marker = f'Secondary result "{benchmark}:asm":'
    at = stdout.find(marker)
    if at < 0:
        return None
    end = stdout.find("\n# ", at)
    return stdout[at:end if end > 0 else len(stdout)]


def region_blocks(section):
    """{index: [lines]} of the ....[Hottest Region N].... blocks."""
    blocks = {}
    current = None
    for line in section.splitlines():
        m = re.match(r"\.\.\.\.\[Hottest Region (\d+)\]", line)
        if m:
            current = int(m.group(1))
            blocks[current] = []
            continue
        if current is not None:
            if line.startswith("...."):
                current = None
                continue
            blocks[current].append(line)
    return blocks


def instruction_rows(lines):
    """(share %, mnemonic, whole line) of the listed instructions that had samples."""
    rows = []
    for line in lines:
        m = re.match(r"^\s*(\d+\.\d+)%\s+\S+\s+.*?0x[0-9a-f]+: (\S+)", line)
        if m:
            rows.append((float(m.group(1)), m.group(2), line))
    return rows


def hottest_source_line(section):
    """The first row of ....[Hottest Source Lines]....: (line text, [mnemonics])."""
    at = section.find("....[Hottest Source Lines]")
    if at < 0:
        return None, []
    row = section[at:].splitlines()[1]
    m = re.search(r"\[([a-z0-9 ]+)\]\s*$", row)
    return row, (m.group(1).split() if m else [])


def main():
    a = args()
    exe = a.sampled
    work = tempfile.mkdtemp(prefix="perfasm-")
    html = os.path.join(work, "report.html")
    js = os.path.join(work, "report.json")  # -rf html,json with -rff report.html: report.html and report.json
    proc = t.run(exe, ["Sampled.division", "-f", "2", "-prof", "alloc", "-prof", "perfasm", "-rf", "html,json", "-rff",
                       html] + QUICK, timeout=180)
    skip_unless_sampling(proc)
    t.check(proc.returncode == 0, f"perfasm run: exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    section = asm_section(proc.stdout, "Sampled.division")
    if not t.check(section is not None, f"no perfasm section\n{proc.stdout[-4000:]}"):
        return t.done()
    t.check("measurement iterations of 2 forks" in section, f"the shares are not over both forks:\n{section[:600]}")
    t.check(re.search(r"Per op: [0-9.]+ (ns|cycles)/op", section) is not None, f"no per-op line:\n{section[:800]}")
    blocks = region_blocks(section)
    if t.check(1 in blocks, f"no hot region:\n{section[:3000]}"):
        header = blocks[1][0] if blocks[1] else ""
        t.check("division_chain" in header and "[user]" in header,
                f"the hottest region is not the user's division_chain:\n{header}\n{section[:3000]}")
        # The division is the hottest: on its own instruction (precise sampling), or, with a
        # timer's skid, on the next one, marked as the division's cost; either way its source
        # line is the hottest line.
        rows = sorted(instruction_rows(blocks[1]), reverse=True)[:3]
        t.check(any(mnemonic.startswith("div") or "skid: likely the cost of the div" in line for _, mnemonic, line in rows),
                f"the div is not among the three hottest lines {rows}:\n" + "\n".join(blocks[1][:60]))
        line, mnemonics = hottest_source_line(section)
        t.check(line is not None and "sampled_benchmarks.cpp:" in line and any(m.startswith("div") for m in mnemonics),
                f"the hottest source line is not the division's: {line}")
        t.check(any("sampled_benchmarks.cpp:" in line for line in blocks[1]),
                "the listing has no source lines:\n" + "\n".join(blocks[1][:40]))
        t.check(any("; inlined: divide_step(" in line and "sampled_benchmarks.cpp:" in line for line in blocks[1]),
                "the division's inline chain (divide_step) is not shown:\n" + "\n".join(blocks[1][:40]))
        t.check(any("hot loop" in line for line in blocks[1][:4]), "no hot loop marked:\n" + "\n".join(blocks[1][:10]))
    t.check("....[Hottest Regions]" in section and "<totals>" in section, "no top-regions table")
    t.check("absent from the hot code" not in section, f"a false 'absent' warning:\n{section[-1500:]}")
    # Sampling takes nothing from the allocator inside the windows -prof alloc measures.
    if t.check(os.path.exists(js), "no JSON result"):
        norm = json.load(open(js))[0]["secondaryMetrics"].get("alloc.rate.norm", {}).get("score")
        t.check(norm == 0, f"-prof alloc counted perfasm's allocations: alloc.rate.norm = {norm}")
    if t.check(os.path.exists(html), "no HTML report"):
        page = open(html, encoding="utf-8").read()
        t.check("Hot code (-prof perfasm)" in page and "division_chain" in page, "the HTML report has no perfasm section")

    # The optimised-away body: the warning.
    proc = t.run(exe, ["Sampled.dropped", "-prof", "perfasm"] + QUICK, timeout=120, check_exit=0)
    section = asm_section(proc.stdout, "Sampled.dropped") or ""
    t.check("WARNING: The benchmark's own code (Sampled.dropped) is absent from the hot code" in section,
            f"no 'absent' warning for the dropped body:\n{section[-3000:]}")

    # No permission: one line, everything else as usual.
    out = os.path.join(work, "denied.json")
    proc = t.run(a.deny_perf, [exe, "Sampled.division", "-prof", "perfasm", "-rf", "json", "-rff", out] + QUICK,
                 timeout=120, check_exit=0)
    lines = [line for line in proc.stdout.splitlines() if "perfasm" in line and "not run" in line]
    t.check(len(lines) == 1 and "not permitted" in lines[0] and "perf_event_paranoid" in lines[0],
            f"expected one line saying sampling is not permitted, got {lines}\n{proc.stdout[-2000:]}")
    t.check("Secondary result" not in proc.stdout, "a perfasm section without samples")
    rows = {r["Benchmark"]: r for r in t.summary_rows(proc.stdout)}
    t.check("Sampled.division" in rows and t.score(rows["Sampled.division"]["Score"]) > 0,
            f"the score is missing without permission:\n{proc.stdout[-2000:]}")
    if t.check(os.path.exists(out), "no result file without permission"):
        data = json.load(open(out))
        t.check(len(data) == 1 and data[0]["primaryMetric"]["score"] > 0, "the result file lost the score")

    # In the host process (-f 0).
    proc = t.run(exe, ["Sampled.division", "-f", "0", "-prof", "perfasm"] + QUICK, timeout=120, check_exit=0)
    section = asm_section(proc.stdout, "Sampled.division") or ""
    blocks = region_blocks(section)
    t.check(1 in blocks and blocks[1] and "division_chain" in blocks[1][0], f"-f 0: no division_chain region\n{section[:2000]}")
    t.done()


if __name__ == "__main__":
    main()

"""Fork arguments reach the fork: a probe benchmark reads its own CPU affinity
(sched_getaffinity), memory policy (get_mempolicy) and environment, under
--cpunodebind=0 --membind=0 -DFOO=bar -Xmx256m, under --physcpubind=<cpu>
--interleave=0, under --localalloc, and with no fork arguments. The header shows
them. Bad fork arguments are an error before anything runs."""
import os

import cmhtest as t
from fork_common import run

tmp = os.environ.get("TMPDIR", "/tmp")
probe = os.path.join(tmp, "probe.txt")
MPOL_DEFAULT, MPOL_BIND, MPOL_INTERLEAVE, MPOL_LOCAL = 0, 2, 3, 4
SHORT = ["-f", "1", "-wi", "0", "-i", "1", "-r", "20ms"]


def cpu_list(text):
    cpus = set()
    for part in text.strip().split(","):
        if "-" in part:
            lo, hi = part.split("-")
            cpus.update(range(int(lo), int(hi) + 1))
        elif part:
            cpus.add(int(part))
    return cpus


def probe_run(fork_args):
    if os.path.exists(probe):
        os.remove(probe)
    args = ["Probe.bindings"] + SHORT + (["-jvmArgs", fork_args] if fork_args else [])
    proc = run(args, expect=0, env={"CMH_PROBE_FILE": probe})
    with open(probe) as f:
        facts = dict(line.strip().split("=", 1) for line in f if "=" in line)
    return proc, facts


node0 = cpu_list(open("/sys/devices/system/node/node0/cpulist").read())
allowed = cpu_list(",".join(str(c) for c in sorted(os.sched_getaffinity(0))))

proc, facts = probe_run("--cpunodebind=0 --membind=0 -DFOO=bar -Xmx256m")
t.check("# Fork options: --cpunodebind=0 --membind=0 -DFOO=bar -Xmx256m" in proc.stdout, "header lacks the fork options")
t.check(cpu_list(facts["cpus"]) == node0 & allowed, f"affinity {facts['cpus']}, expected node 0's CPUs {sorted(node0)}")
t.check(int(facts["mempolicy"]) == MPOL_BIND and facts["nodemask"] == "1", f"memory policy {facts}: expected bind to node 0")
t.check(facts["FOO"] == "bar", f"FOO={facts['FOO']}, expected bar")
t.check(facts["CMH_ALLOC"] == "-Xmx256m", f"CMH_ALLOC={facts['CMH_ALLOC']}, expected -Xmx256m")
t.check(int(facts["pid"]) != proc.returncode and facts["pid"] != str(os.getpid()), "the probe ran in the wrong process")

last_cpu = max(allowed)
proc, facts = probe_run(f"--physcpubind={last_cpu} --interleave=0")
t.check(cpu_list(facts["cpus"]) == {last_cpu}, f"affinity {facts['cpus']}, expected only CPU {last_cpu}")
t.check(int(facts["mempolicy"]) == MPOL_INTERLEAVE, f"memory policy {facts['mempolicy']}, expected interleave")
t.check(facts["FOO"] == "<unset>" and facts["CMH_ALLOC"] == "<unset>", f"environment leaked: {facts}")

proc, facts = probe_run("--localalloc")
t.check(int(facts["mempolicy"]) == MPOL_LOCAL, f"memory policy {facts['mempolicy']}, expected local")

proc, facts = probe_run(None)
t.check(int(facts["mempolicy"]) == MPOL_DEFAULT and cpu_list(facts["cpus"]) == allowed,
        f"without fork arguments the fork should inherit everything: {facts}")

# Bad fork arguments: exit 1 before anything runs.
BAD = [
    ("--membind=4096", "'4096' is not a list of existing NUMA nodes"),
    ("--physcpubind=100000", "'100000' is not a list of existing CPUs"),
    ("-Xmx1q", "is not a size"),
    ("-XX:+UseG1GC", "unknown fork argument '-XX:+UseG1GC'"),
    ("--preferred=0,0-0 --cpunodebind", "needs a value"),
]
for fork_args, message in BAD:
    proc = run(["Probe.bindings", "-jvmArgs", fork_args] + SHORT, expect=1)
    out = proc.stdout + proc.stderr
    t.check("Error parsing command line:" in out and message in out, f"{fork_args!r}: message missing\n{out[-1500:]}")
    t.check("# Fork:" not in out and "# Run progress" not in out, f"{fork_args!r}: something ran\n{out[-1500:]}")

t.done()

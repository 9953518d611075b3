"""End-to-end: the cmh-system executable. show on this machine's own tree exits 0,
lists every section, and gives the reason under every unknown knob; when the test
runs as root it does the same as nobody (setpriv), where more files are unreadable.
tune on a read-only fake tree refuses with one line naming what needs root and
changes nothing; --help and bad arguments. It never runs tune or reset on the real
tree."""
import argparse
import os
import shutil
import stat
import tempfile

from cmhtest import check, done, run

parser = argparse.ArgumentParser()
parser.add_argument("--tool", required=True)
args = parser.parse_args()


def check_show(proc, who):
    check(proc.returncode == 0, f"show as {who}: exit {proc.returncode}\n{proc.stderr}")
    out = proc.stdout
    for section in ("\nCPU\n", "\nMemory and kernel\n", "\nMachine\n"):
        check(section in out, f"show as {who}: no section {section.strip()}")
    lines = out.splitlines()
    knobs = [i for i, l in enumerate(lines) if l[:11].strip() in ("ok", "DIFFERS", "UNKNOWN", "info") and l.startswith("  ")]
    check(len(knobs) >= 15, f"show as {who}: {len(knobs)} knob lines:\n{out}")
    for i in knobs:
        check(lines[i + 1].lstrip().startswith(("wanted:", "unknown because:")), f"show as {who}: {lines[i:i + 2]}")
        if lines[i].lstrip().startswith("UNKNOWN"):
            check(lines[i + 1].lstrip().startswith("unknown because: ") and len(lines[i + 1].strip()) > 20,
                  f"show as {who}: an unknown knob without its reason: {lines[i:i + 2]}")
    check(" unknown, " in lines[-1], f"show as {who}: no summary line: {lines[-1]}")
    return out


check_show(run(args.tool, ["show"], timeout=30), "this user")
# nobody may not be able to reach the build tree (a clone under /root): a copy of the tool
# and the fake tree go to a directory of their own under /tmp.
shared = tempfile.mkdtemp(prefix="cmh-system-e2e-", dir="/tmp")
os.chmod(shared, 0o755)
tool = os.path.join(shared, "cmh-system")
shutil.copy(args.tool, tool)
os.chmod(tool, 0o755)
setpriv = shutil.which("setpriv")
if os.geteuid() == 0 and setpriv:
    as_nobody = run(setpriv, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", tool, "show"], timeout=30)
    check_show(as_nobody, "nobody")

# A fake tree nobody may write: tune refuses in one line and changes nothing.
root = os.path.join(shared, "root")
os.mkdir(root, 0o755)
files = {
    "sys/devices/system/cpu/online": "0-1\n",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "powersave\n",
    "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor": "powersave\n",
    "sys/devices/system/cpu/cpufreq/boost": "1\n",
    "proc/sys/kernel/numa_balancing": "1\n",
}
for rel, text in files.items():
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o444)
for dirpath, dirnames, _ in os.walk(root):
    for d in dirnames:
        os.chmod(os.path.join(dirpath, d), 0o755)
tune = [tool, "--root", root, "tune"]
if os.geteuid() == 0:
    # root writes read-only files: run as nobody, who may not.
    tune = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + tune if setpriv else None
if tune:
    proc = run(tune[0], tune[1:], timeout=30)
    check(proc.returncode == 1, f"tune on a read-only tree: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    err = proc.stderr.strip().splitlines()
    check(len(err) == 1 and err[0].startswith("cmh-system tune: setting frequency governor, turbo / boost")
          and "needs root" in err[0] and err[0].endswith("nothing was changed"), f"tune: {proc.stderr}")
    for rel, text in files.items():
        with open(os.path.join(root, rel)) as f:
            check(f.read() == text, f"tune changed {rel}")
    check(not os.path.exists(os.path.join(root, "var")), "tune wrote a state file")
dry = run(args.tool, ["--root", root, "--dry-run", "tune"], timeout=30)
check(dry.returncode == 0 and "would write 'performance'" in dry.stdout, f"dry run: {dry.stdout}")
check(run(args.tool, ["--root", root, "reset"], timeout=30).stdout.startswith("Nothing to reset"), "reset without state")
shutil.rmtree(shared)

helped = run(args.tool, ["--help"], timeout=30)
check(helped.returncode == 0 and helped.stdout.startswith("Usage: cmh-system"), "--help")
for bad, text in ((["tweak"], "unknown command tweak"), ([], "no command"), (["--root"], "--root needs a value")):
    proc = run(args.tool, bad, timeout=30)
    check(proc.returncode == 2 and proc.stderr.strip() == f"cmh-system: {proc.stderr.strip()[12:]}"
          and text in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, f"{bad}: {proc.stderr}")
done()

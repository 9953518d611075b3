"""No process escapes (issue 16, finding 7): a benchmark that double-forks and
setsid()s a sleeper out of its fork's process group leaves nothing running once
cmh has exited, with or without -foe, and after a failed fork too."""
import os

import cmhtest as t
from host_common import run, tmp_path


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie is dead for this purpose; it has no parent to reap it only if it escaped.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


for extra, expect in ((["Host.daemon", "-f", "2"], 0), (["Host.daemon", "-f", "1", "-foe", "true"], 0),
                      (["Host.daemon|Host.heap_limit_line", "-f", "1", "-foe", "true"], 2)):
    pid_file = tmp_path("daemon.pid")
    if os.path.exists(pid_file):
        os.unlink(pid_file)
    args = extra + ["-wi", "0", "-i", "1", "-r", "10ms"]
    run(args, expect=expect, env={"CMH_DAEMON_PID_FILE": pid_file})  # also checks no marked process is left
    if t.check(os.path.exists(pid_file), f"{extra}: the daemon never started"):
        with open(pid_file) as f:
            pid = int(f.read())
        t.check(not alive(pid), f"{extra}: the setsid'd grandchild {pid} is still running after cmh exited")
        if alive(pid):
            os.kill(pid, 9)

t.done()

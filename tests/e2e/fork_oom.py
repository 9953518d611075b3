"""A fork that runs out of memory under a small -Xmx is reported as out of
memory (the bundled allocator's "heap limit" line, or std::bad_alloc), FAILED
in the summary, and the exit status is 2."""
import cmhtest as t
from fork_common import failed_row, run

# Enough iterations to pass 32 MiB however slowly this machine allocates (1 MiB per call):
# the fork fails at the limit, so the extra iterations never run.
proc = run(["Fault.oom", "-f", "1", "-jvmArgs", "-Xmx32m", "-wi", "1", "-i", "100", "-w", "30ms", "-r", "30ms"])
failed_row(proc, "Fault.oom", "out of memory")
t.check("heap limit" in proc.stdout + proc.stderr, "the allocator's heap-limit message is not shown\n" +
        (proc.stdout + proc.stderr)[-2000:])
t.check("no heap limit: 512 MiB allocated" not in proc.stdout, "-Xmx32m did not limit the fork's heap")

t.done()

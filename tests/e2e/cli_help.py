"""-h: exit 0, JMH's usage layout naming the executable, every option with cmh's
defaults, the fork-argument vocabulary, the host property and the exit statuses;
nothing runs."""
import cmhtest as t

proc = t.run(t.SAMPLES, ["-h"], timeout=60, check_exit=0)
out = proc.stdout + proc.stderr
lines = out.splitlines()
t.check(lines and lines[0].startswith("Usage: ") and lines[0].endswith(" [regexp*] [options]"),
        f"-h does not open with the usage line:\n{out[:500]}")
t.check("cmh-samples" in lines[0], f"the usage line does not name the executable: {lines[0] if lines else ''}")
t.check('"time" arguments accept time suffixes, like "100ms".' in out, "-h lacks the time-suffix note")
t.check("# Run progress" not in out and "Iteration" not in out, "-h ran something")

# Each option in its 30-column field.
for option in ["-bm <mode>", "-bs <int>", "-e <regexp+>", "-f <int>", "-foe <bool>", "-forkArgs <string>",
               "-forkArgsAppend <string>", "-forkArgsPrepend <string>", "-forkStartTimeout <time>", "-gc <bool>", "-h", "-i <int>", "-l",
               "-lp", "-lprof", "-lrf", "-o <filename>", "-opi <int>", "-p <param={v,}*>", "-prof <profiler>",
               "-r <time>", "-rf <type>", "-rff <filename>", "-si <bool>", "-t <int>", "-tg <int+>", "-to <time>",
               "-tu <TU>", "-v <mode>", "-w <time>", "-wbs <int>", "-wf <int>", "-wi <int>"]:
    entry = [l for l in lines if l.startswith(f"  {option} ") and len(l) > 30 and l[30] != " " and not l[2 + len(option):30].strip()]
    t.check(len(entry) == 1, f"-h: no 30-column entry for {option!r}")

flat = " ".join(l.strip() for l in lines)
for text in ["(default: 3)", "(default: 0 for SingleShotTime, and 3 for all other modes)",
             "(default: 1 for SingleShotTime, and 5 for all other modes)", "(default: 1 s)", "(default: 10 min)",
             "(default: s for Throughput (ops/s), ns for the time modes (ns/op))", "Also spelled -jvmArgs.",
             "-Xmx<size>", "-Xms<size>", "-XX:+AlwaysPreTouch", "-XX:-UseNUMA", "-XX:RegionSize=<size>",
             "-XX:DecayTime=<ms>", "--cpunodebind=<nodes>", "--physcpubind=<cpus>", "--membind=<nodes>",
             "--interleave=<nodes>", "--preferred=<node>", "--localalloc", "-D<NAME>=<value>",
             "-Dcmh.ignoreLock=true", "Bad command line; nothing ran.", "128+N", "-lprof", "-lrf"]:
    t.check(text in flat, f"-h lacks {text!r}")

# --help is -h too, as users try it first.
t.check(t.run(t.SAMPLES, ["--help"], timeout=60, check_exit=0).returncode == 0, "--help")

t.done()

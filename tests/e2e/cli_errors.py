"""Every bad command line of the foundation issue, run against the real samples
executable (and the CLI fixture for parameter errors): each exits 1, prints
"Error parsing command line:" (or JMH's no-match message) with the offending text,
and starts no benchmark."""
import argparse

import cmhtest as t

parser = argparse.ArgumentParser()
parser.add_argument("--fixture", required=True)
opts = parser.parse_args()

PARSE_ERROR = "Error parsing command line:"

# (arguments, text the message must contain); TAB is selected where the error
# depends on what is selected, so that the samples' own contents do not matter.
SAMPLE_CASES = [
    (["-nosuch"], "Unknown option: -nosuch"),
    (["TAB", "--nosuch=1"], "Unknown option: --nosuch=1"),
    (["-jvmargs", "-Xmx1g"], "did you mean -jvmArgs?"),
    (["-i", "abc"], 'Option -i: "abc" is not an integer'),
    (["-i", "-1"], "Option -i: the value -1 should be positive"),
    (["-i", "0"], "Option -i: the value 0 should be positive"),
    (["TAB", "-i"], "Option -i needs a value <int>"),
    (["-wi", "-1"], "Option -wi: the value -1 should be non-negative"),
    (["-f", "two"], 'Option -f: "two" is not an integer'),
    (["-r", "5parsecs"], 'Option -r: "5parsecs" is not a time'),
    (["-w", "1 fortnight"], 'Option -w: "1 fortnight" is not a time'),
    (["-to", "0"], 'Option -to: the timeout "0" should be positive'),
    (["-forkStartTimeout", "0"], 'Option -forkStartTimeout: the start-up timeout "0" should be positive'),
    (["-forkStartTimeout", "soon"], 'Option -forkStartTimeout: "soon" is not a time'),
    (["-t", "0"], "Option -t: the value 0 should be positive (or max, halfmax)"),
    (["-t", "lots"], 'Option -t: "lots" is not an integer'),
    (["-bm", "fast"], 'Option -bm: unknown benchmark mode "fast"'),
    (["-bm", "a"], 'Option -bm: the benchmark mode prefix "a" is ambiguous'),
    (["-tu", "weeks"], 'Option -tu: unknown time unit "weeks"'),
    (["-p", "size"], 'Option -p: "size" is not name=value1,value2,...'),
    (["-p", "size="], 'Option -p: no values given for the parameter "size"'),
    (["TAB", "-p", "nosuch=1"], 'Option -p: no selected benchmark has a parameter "nosuch"'),
    (["Params", "-p", "size=abc"], "Option -p: 'abc' is not a valid int for parameter 'size' of Params.sum"),
    (["-v", "LOUD"], 'Option -v: unknown verbosity "LOUD"'),
    (["-si", "maybe"], 'Option -si: "maybe" is not a boolean'),
    (["-foe", "yes"], 'Option -foe: "yes" is not a boolean'),
    (["-tg", "3,x"], 'Option -tg: "x" is not an integer'),
    (["TAB", "-tg", "3,1"], "Option -tg 3,1: none of the selected benchmarks is a thread-group benchmark"),
    (["-i", "3", "-i", "4"], "Option -i is given more than once"),
    (["-fo", "1"], "Option -fo is ambiguous"),
    (["-l=1"], 'Option -l takes no value, got "1"'),
    (["-Dfoo=1"], "Unknown property: -Dfoo=1"),
    (["("], 'Invalid include regular expression "("'),
    (["-l", "("], 'Invalid include regular expression "("'),
    (["TAB", "-e", "[x"], 'Invalid exclude (-e) regular expression "[x"'),
    (["TAB", "-forkArgs", "--no-such-binding"], "Fork arguments of TAB.inline (--no-such-binding): "),
    (["TAB", "-jvmArgsAppend", "-XX:+NoSuchAllocatorFlag"], "Fork arguments of TAB.inline"),
    (["TAB", "-forkArgs", '-DX="open'], "Option -forkArgs: an unterminated double quote"),
]

FIXTURE_CASES = [
    (["CliNoValues"], 'Benchmark CliNoValues.depth has the parameter "depth" but no values for it'),
    (["CliFixture.sum", "-p", "depth=1"], 'Option -p: no selected benchmark has a parameter "depth"'),
    (["CliFixture.empty", "-p", "size=1"], "the selected benchmarks have no parameters"),
]


def ran_nothing(proc):
    out = proc.stdout + proc.stderr
    return all(marker not in out for marker in ("# Run progress", "# Benchmark:", "Iteration   1", "# Fork:"))


def expect_error(exe, args, message, header=PARSE_ERROR):
    proc = t.run(exe, args, timeout=60)
    out = proc.stdout + proc.stderr
    what = f"{' '.join(args)!r}"
    t.check(proc.returncode == 1, f"{what}: exit {proc.returncode}, expected 1\n{out[-2000:]}")
    t.check(header in out, f"{what}: no {header!r} in the output:\n{out[-2000:]}")
    t.check(message in out, f"{what}: no {message!r} in the output:\n{out[-2000:]}")
    t.check(ran_nothing(proc), f"{what}: something ran:\n{out[-2000:]}")
    t.check("terminate called" not in out and "Aborted" not in out and "what():" not in out,
            f"{what}: crashed instead of reporting:\n{out[-2000:]}")
    # The reason follows the header on the next line, as JMH prints it.
    if header == PARSE_ERROR and header in out:
        after = out.split(header, 1)[1].lstrip("\n")
        t.check(message in after.splitlines()[0] if after else False,
                f"{what}: the reason is not on the line after the header:\n{out[-2000:]}")


for args, message in SAMPLE_CASES:
    expect_error(t.SAMPLES, args, message)

for args, message in FIXTURE_CASES:
    expect_error(opts.fixture, args, message)

# A filter that matches nothing: JMH's two lines, exit 1, nothing runs.
for exe, args in [(t.SAMPLES, ["NoSuchBenchmarkAnywhere"]), (t.SAMPLES, ["TAB", "-e", "TAB"]),
                  (opts.fixture, ["^CliFixture$"])]:
    expect_error(exe, args, "Use EXTRA verbose mode to debug the pattern matching.",
                 header="No matching benchmarks. Miss-spelled regexp?")

t.done()

"""Builds the fork-channel frame decoder fuzz target with clang++ -fsanitize=fuzzer
(from the decoder sources alone) and runs it for a bounded time. Exits non-zero if
it does not build or if libFuzzer finds a crash, a sanitizer error or a leak.
Usage: run_fuzz.py <work dir> <seconds>"""
import os
import shutil
import subprocess
import sys

SOURCE = os.environ.get("CMH_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
work = sys.argv[1]
seconds = sys.argv[2] if len(sys.argv) > 2 else "20"
os.makedirs(work, exist_ok=True)

clang = shutil.which("clang++") or shutil.which("clang++-14")
if not clang:
    print("FAIL: clang++ is not installed (scripts/bootstrap installs it)", file=sys.stderr)
    sys.exit(1)

sources = [os.path.join(SOURCE, "tests", "fuzz", "frame_decoder_fuzz.cpp")] + [
    os.path.join(SOURCE, "harness", "src", "wire", f + ".cpp") for f in ("bytes", "codec", "frames", "messages")]
binary = os.path.join(work, "frame_decoder_fuzz")
cmd = [clang, "-std=c++20", "-O1", "-g", "-Wall", "-Wextra", "-fsanitize=fuzzer,address,undefined",
       "-fno-sanitize-recover=undefined", "-I" + os.path.join(SOURCE, "harness", "include"),
       "-I" + os.path.join(SOURCE, "harness", "src"), "-o", binary] + sources
print(" ".join(cmd), flush=True)
if subprocess.run(cmd).returncode != 0:
    print("FAIL: the fuzz target does not build", file=sys.stderr)
    sys.exit(1)

corpus = os.path.join(work, "corpus")
shutil.rmtree(corpus, ignore_errors=True)
os.makedirs(corpus)
env = dict(os.environ, CMH_FUZZ_SEED_DIR=corpus)
run = [binary, corpus, "-max_total_time=" + seconds, "-max_len=8192", "-rss_limit_mb=1024",
       "-artifact_prefix=" + work + "/", "-print_final_stats=1"]
print(" ".join(run), flush=True)
proc = subprocess.run(run, env=env)
if proc.returncode != 0:
    print(f"FAIL: libFuzzer exited {proc.returncode}; the crashing input is in {work}", file=sys.stderr)
    sys.exit(1)
print("fuzzing found nothing in", seconds, "s")

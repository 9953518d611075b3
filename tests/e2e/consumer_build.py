"""Consumer tests: cmh used from a user's own project, out of tree, as docs/packaging.md ("Use
cmh in your project") says. Each step configures, builds and runs a small separate project
(tests/consumer/) with one benchmark and -prof alloc, and checks that the benchmark ran
and that alloc.rate.norm is exactly 4000 B/op (std::vector<int>(1000)). find_package and
pkg_config also build a Google Benchmark suite (tests/consumer/gbench.cpp, BENCHMARK_MAIN)
against the installed cmh::gbench_main / cmh-gbench-main and run it under cmh the same way:
its <benchmark/benchmark.h> must be cmh's, although Google Benchmark's is in /usr/include. It also checks
what cmh must not do to the user's build: change the build type, build its tests,
samples or sanitizer twins, show warnings, or put its private include directories and
dependencies (harness/src, fmt, nlohmann_json) on the user's compile line.

  --step install           cmake --install the parent build into --prefix (the fixture)
  --step find_package      tests/consumer/find_package against --prefix (+ custom main, + gbench)
  --step pkg_config        c++ $(pkg-config --cflags --libs cmh-main cmh-alloc) against --prefix,
                           and the gbench suite with $(pkg-config --cflags --libs cmh-gbench-main)
  --step add_subdirectory  tests/consumer/add_subdirectory on cmh's sources
  --step fetchcontent      tests/consumer/fetchcontent (SOURCE_DIR) on cmh's sources"""
import argparse
import json
import os
import shlex
import shutil
import subprocess

import cmhtest as t

ap = argparse.ArgumentParser()
ap.add_argument("--step", required=True,
                choices=["install", "find_package", "pkg_config", "add_subdirectory", "fetchcontent"])
ap.add_argument("--cmake", required=True)
ap.add_argument("--generator", required=True)
ap.add_argument("--make-program", default="")
ap.add_argument("--cc", required=True)
ap.add_argument("--cxx", required=True)
ap.add_argument("--launcher", default="")
ap.add_argument("--pkg-config", default="")
ap.add_argument("--prefix", required=True)
args = ap.parse_args()

PROJECTS = os.path.join(t.SOURCE, "tests", "consumer")
WORK = os.path.join(os.environ.get("TMPDIR", "/tmp"), "consumer")


def sh(cmd, timeout, env=None, cwd=None):
    """Runs a build command; on failure records it with its output and returns None."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=full_env, cwd=cwd,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        t.fail(f"{shlex.join(cmd)}: no result after {timeout} s")
        return None
    if proc.returncode != 0:
        t.fail(f"{shlex.join(cmd)}: exit {proc.returncode}\n--- stdout ---\n{proc.stdout[-4000:]}\n"
               f"--- stderr ---\n{proc.stderr[-4000:]}")
        return None
    return proc


def check_run(exe, label, bench="Consumer.vector"):
    """Runs one benchmark of the consumer's executable, forked, with -prof alloc."""
    result = os.path.join(WORK, f"{label}.json")
    proc = t.run(exe, [bench, "-f", "1", "-wi", "1", "-i", "2", "-w", "50ms", "-r", "100ms",
                       "-prof", "alloc", "-rf", "json", "-rff", result], timeout=300, check_exit=0)
    rows = {r["Benchmark"]: r for r in t.summary_rows(proc.stdout)}
    norm_row = rows.get(f"{bench}:alloc.rate.norm")
    if not t.check(bench in rows and norm_row is not None, f"{label}: no summary rows for {bench}\n{proc.stdout[-3000:]}"):
        return
    norm = t.score(norm_row["Score"])
    print(f"{label}: {bench} {rows[bench]['Score']} {rows[bench]['Units']}, alloc.rate.norm = {norm} B/op")
    t.check(norm == 4000.0, f"{label}: alloc.rate.norm = {norm} in the summary, expected exactly 4000 B/op")
    try:
        with open(result) as f:
            entry = next(e for e in json.load(f) if e["benchmark"].endswith(bench))
        score = entry["secondaryMetrics"]["alloc.rate.norm"]["score"]
        primary = entry["primaryMetric"]["score"]
    except (OSError, ValueError, StopIteration, KeyError) as e:
        t.fail(f"{label}: {result}: no {bench} alloc.rate.norm ({e!r})")
        return
    t.check(primary > 0, f"{label}: primary score {primary} in {result}")
    t.check(abs(score - 4000.0) <= 1e-9 * 4000.0, f"{label}: alloc.rate.norm = {score!r} in {result}, expected 4000")


def compiles(file, source):
    """Whether compiling `file` compiles `source`: it is that source, or a unity batch including it."""
    if file.endswith(source):
        return True
    if "/Unity/unity_" not in file:
        return False
    try:
        with open(file) as f:
            return source in f.read()
    except OSError:
        return False


def check_compile_line(build, label, source="bench.cpp"):
    """The user's benchmark is compiled with cmh's public include directory only."""
    try:
        with open(os.path.join(build, "compile_commands.json")) as f:
            commands = [c["command"] for c in json.load(f) if compiles(c["file"], "consumer/" + source)]
    except (OSError, ValueError, KeyError) as e:
        t.fail(f"{label}: compile_commands.json: {e!r}")
        return
    if not t.check(commands, f"{label}: {source} is not in compile_commands.json"):
        return
    check_flags(commands, label)


def check_flags(commands, label):
    """No private include directory, dependency or warning flag of cmh's on the user's compile line."""
    for command in commands:
        for leak in ("harness/src", "profilers/src", "allocator/src", "FMT_", "nlohmann", "-Wall", "-Wextra"):
            t.check(leak not in command, f"{label}: the user's compile line holds {leak!r}: {command}")


def configure_and_build(project, build, extra, build_type):
    shutil.rmtree(build, ignore_errors=True)
    cmd = [args.cmake, "-S", project, "-B", build, "-G", args.generator, f"-DCMAKE_C_COMPILER={args.cc}",
           f"-DCMAKE_CXX_COMPILER={args.cxx}", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + extra
    if args.make_program:
        cmd.append(f"-DCMAKE_MAKE_PROGRAM={args.make_program}")
    if build_type:
        cmd.append(f"-DCMAKE_BUILD_TYPE={build_type}")
    if args.launcher:
        cmd += [f"-DCMAKE_C_COMPILER_LAUNCHER={args.launcher}", f"-DCMAKE_CXX_COMPILER_LAUNCHER={args.launcher}"]
    env = {}
    if "ccache" in os.path.basename(args.launcher):
        # The add_subdirectory and fetchcontent builds compile cmh's sources with the same
        # flags into the same relative paths (cmh-build/ in each), so one fills ccache for the other.
        env = {"CCACHE_BASEDIR": os.path.dirname(os.path.dirname(WORK)), "CCACHE_NOHASHDIR": "1"}
    if sh(cmd, timeout=t.guard(300), env=env) is None:
        return None
    built = sh([args.cmake, "--build", build, "-j", "2"], timeout=t.guard(3500), env=env)
    if built is not None:
        t.check("warning:" not in built.stdout + built.stderr,
                f"{os.path.basename(project)}: the build shows warnings:\n{built.stdout[-4000:]}")
    return built


GBENCH = "BM_consumer_vector"


def check_gbench_include(build, label):
    """The gbench suite is compiled with the installed include/cmh/gbench ahead of everything."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = [c["command"] for c in json.load(f) if c["file"].endswith("consumer/gbench.cpp")]
    wanted = os.path.join(args.prefix, "include", "cmh", "gbench")
    for command in commands:
        t.check(f"-I{wanted}" in command or f"-isystem {wanted}" in command,
                f"{label}: {wanted} is not on the gbench suite's compile line: {command}")


os.makedirs(WORK, exist_ok=True)
step = args.step
if step == "install":
    shutil.rmtree(args.prefix, ignore_errors=True)
    if sh([args.cmake, "--install", t.BUILD, "--prefix", args.prefix], timeout=t.guard(300)) is not None:
        for rel in ("include/cmh/cmh.hpp", "include/cmh/extension.hpp", "include/cmh/main.hpp", "include/cmh/alloc.h",
                    "include/cmh/detail/loop_interface.hpp", "lib/libcmh.a",
                    "lib/libcmh_main.a", "lib/libcmhalloc.so", "lib/cmake/cmh/cmhConfig.cmake",
                    "lib/cmake/cmh/cmhConfigVersion.cmake", "lib/cmake/cmh/cmhTargets.cmake",
                    "lib/pkgconfig/cmh.pc", "lib/pkgconfig/cmh-main.pc", "lib/pkgconfig/cmh-alloc.pc",
                    # Google Benchmark's header, where it cannot clash with Google Benchmark's own
                    "include/cmh/gbench/benchmark/benchmark.h", "lib/libcmh_gbench.a", "lib/libcmh_gbench_main.a",
                    "lib/pkgconfig/cmh-gbench.pc", "lib/pkgconfig/cmh-gbench-main.pc"):
            t.check(os.path.exists(os.path.join(args.prefix, rel)), f"install: {rel} is missing")
        libs = os.listdir(os.path.join(args.prefix, "lib"))
        t.check(any(n.startswith("libcmh.so.") for n in libs), f"install: no libcmh.so.<version> in {libs}")
        private = [os.path.join(d, n) for d, _, ns in os.walk(os.path.join(args.prefix, "include")) for n in ns
                   if not os.path.join(d, n).split("/include/", 1)[1].startswith("cmh/")]
        t.check(not private, f"install: headers outside include/cmh/: {private}")
elif step == "find_package":
    build = os.path.join(WORK, "build")
    if configure_and_build(os.path.join(PROJECTS, "find_package"), build, [f"-DCMAKE_PREFIX_PATH={args.prefix}"],
                           "Release"):
        check_compile_line(build, step)
        check_run(os.path.join(build, "mybench"), "find_package, cmh_add_benchmark")
        check_run(os.path.join(build, "mybench-custom-main"), "find_package, custom main")
        check_compile_line(build, step + " gbench", "gbench.cpp")
        check_gbench_include(build, "find_package")
        check_run(os.path.join(build, "mygbench"), "find_package, cmh::gbench_main", GBENCH)
elif step == "pkg_config":
    env = {"PKG_CONFIG_PATH": os.path.join(args.prefix, "lib", "pkgconfig")}
    flags = sh([args.pkg_config, "--cflags", "--libs", "cmh-main", "cmh-alloc"], timeout=t.guard(30), env=env)
    if flags is not None:
        print("pkg-config --cflags --libs cmh-main cmh-alloc:", flags.stdout.strip())
        for leak in ("harness/src", "fmt", "nlohmann"):
            t.check(leak not in flags.stdout, f"pkg_config: the flags hold {leak!r}")
        exe = os.path.join(WORK, "mybench-pc")
        cmd = ([args.cxx, "-std=c++20", "-O2", os.path.join(PROJECTS, "bench.cpp"), "-o", exe]
               + shlex.split(flags.stdout) + [f"-Wl,-rpath,{os.path.join(args.prefix, 'lib')}"])
        if sh(cmd, timeout=t.guard(600)) is not None:
            # The shared libraries, not the archives: libcmh.so.0 and libcmhalloc.so.
            needed = sh(["readelf", "-d", exe], timeout=t.guard(30))
            if needed is not None:
                for lib in ("libcmh.so.0", "libcmhalloc.so"):
                    t.check(f"[{lib}]" in needed.stdout, f"pkg_config: {exe} does not need {lib}")
            check_run(exe, "pkg-config, libcmh.so + libcmhalloc.so")
    gflags = sh([args.pkg_config, "--cflags", "--libs", "cmh-gbench-main"], timeout=t.guard(30), env=env)
    if gflags is not None:
        print("pkg-config --cflags --libs cmh-gbench-main:", gflags.stdout.strip())
        includes = [os.path.normpath(f[2:]) for f in shlex.split(gflags.stdout) if f.startswith("-I")]
        t.check(includes[:1] == [os.path.normpath(os.path.join(args.prefix, "include", "cmh", "gbench"))],
                f"pkg_config: cmh-gbench-main's flags do not put include/cmh/gbench first: {includes}")
        exe = os.path.join(WORK, "mygbench-pc")
        cmd = ([args.cxx, "-std=c++20", "-O2", os.path.join(PROJECTS, "gbench.cpp"), "-o", exe]
               + shlex.split(gflags.stdout) + [f"-Wl,-rpath,{os.path.join(args.prefix, 'lib')}"])
        check_flags([shlex.join(cmd)], "pkg_config gbench")
        if sh(cmd, timeout=t.guard(600)) is not None:
            check_run(exe, "pkg-config, cmh-gbench-main", GBENCH)
else:
    build = os.path.join(WORK, "build")
    # No build type: cmh must not set one (it would in its own tree), and an unoptimised
    # build of cmh's sources is the quickest. A unity build, as many users' are: it halves
    # the CPU time of compiling cmh's sources (118 s against 239 s here), and each source
    # still compiles on its own in cmh's own build.
    extra = [f"-DCMH_SOURCE={t.SOURCE}", "-DCMAKE_UNITY_BUILD=ON"]
    if step == "fetchcontent":
        extra.append(f"-DFETCHCONTENT_BASE_DIR={build}")  # cmh-build/, as add_subdirectory's
    if configure_and_build(os.path.join(PROJECTS, step), build, extra, None):
        check_compile_line(build, step)
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            cache = f.read()
        t.check("\nCMAKE_BUILD_TYPE:STRING=\n" in cache or "CMAKE_BUILD_TYPE:" not in cache,
                f"{step}: cmh changed the parent's CMAKE_BUILD_TYPE")
        ninja_file = os.path.join(build, "build.ninja")
        if os.path.exists(ninja_file):
            with open(ninja_file) as f:
                ninja = f.read()
            for unwanted in ("cmh-unit-tests", "cmh-samples", "_asan", "cmh-bench"):
                t.check(unwanted not in ninja, f"{step}: the user's build holds cmh's {unwanted}")
        tests = [d for d, _, ns in os.walk(build) if "CTestTestfile.cmake" in ns]
        t.check(not tests, f"{step}: cmh enabled testing in the user's build: {tests}")
        check_run(os.path.join(build, "mybench"), step)
t.done()

#!/usr/bin/env python3
"""The build's walls (ctest walls:include-paths): no target outside tests/ compiles with
another part's private src/ folder on its include path. A part is a folder with its own
CMakeLists.txt (allocator, harness, profilers, gbench, tools/compare, main, ...); its
targets are those CMake writes under <build>/<part>/CMakeFiles. Unit tests (targets under
tests/) may reach src/ through the parts' test-only INTERFACE targets.

Reads <build>/compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS, on at top level).
Crossings still allowed are listed in allowed_crossings.txt, each with its reason; one
not listed, or one listed that no longer occurs, fails the test.

Usage: check_include_walls.py BUILD_DIR SOURCE_DIR ALLOWED_FILE"""
import json
import os
import re
import shlex
import sys


def part_of_source_path(rel):
    """'harness/src/engine' -> 'harness'; 'tools/compare/src' -> 'tools/compare'; else None."""
    m = re.match(r"^(.+?)/src(/|$)", rel)
    return m.group(1) if m else None


def output_of(command):
    """The object file a compile command writes (-o), relative to the build directory."""
    args = shlex.split(command)
    return args[args.index("-o") + 1] if "-o" in args[:-1] else ""


def include_dirs(command, directory):
    args = shlex.split(command)
    dirs = []
    for i, a in enumerate(args):
        value = None
        if a in ("-I", "-isystem", "-iquote") and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith("-I") and len(a) > 2:
            value = a[2:]
        if value is not None:
            dirs.append(os.path.normpath(os.path.join(directory, value)))
    return dirs


def main():
    if len(sys.argv) != 4:
        print(__doc__.splitlines()[-1])
        return 2
    build, source, allowed_file = (os.path.realpath(p) for p in sys.argv[1:])
    try:
        with open(os.path.join(build, "compile_commands.json")) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        print(f"walls: cannot read {build}/compile_commands.json: {e}")
        return 1
    allowed = set()
    with open(allowed_file) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                allowed.add(tuple(line.split()[:2]))
    found = {}  # (target, include part) -> an example source file
    for e in entries:
        command = e.get("command") or " ".join(shlex.quote(a) for a in e.get("arguments", []))
        out = e.get("output") or output_of(command)
        m = re.match(r"^(?:(.*)/)?CMakeFiles/([^/]+)\.dir/", out)
        if not m:
            continue
        target_part, target = m.group(1) or ".", m.group(2)
        if target_part == "tests" or target_part.startswith("tests/"):
            continue
        for d in include_dirs(command, e.get("directory", build)):
            rel = os.path.relpath(d, source)
            if rel.startswith(".."):
                continue
            part = part_of_source_path(rel)
            if part is not None and part != target_part:
                found.setdefault((target, rel), e.get("file", "?"))
    unexpected = sorted(k for k in found if k not in allowed)
    stale = sorted(k for k in allowed if k not in found)
    for target, rel in unexpected:
        print(f"walls: target {target} has another part's private folder {rel} on its include path "
              f"(compiling {os.path.relpath(found[(target, rel)], source)}); use that part's include/")
    for target, rel in stale:
        print(f"walls: {os.path.relpath(allowed_file, source)} allows {target} -> {rel}, which no longer "
              "occurs: remove the line")
    print(f"walls: {len(entries)} compile commands, {len(found)} crossing(s), all allowed"
          if not unexpected and not stale else "walls: FAILED")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main())

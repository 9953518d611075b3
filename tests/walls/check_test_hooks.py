#!/usr/bin/env python3
"""No test hook in the product (ctest walls:no-test-hooks): the installed shared libraries
export no test entry point (nm -D) and do not even hold the CMH_ALLOC_TOPOLOGY parser, and
the installed headers declare none. The hooks live in allocator/testing/, linked only into
the test and debug builds (allocator/README.md, "Injected topology").

Usage: check_test_hooks.py PREFIX [LIBRARY ...]   (PREFIX: an installed tree; LIBRARY:
more shared libraries to check, e.g. the build's libcmhalloc.so)"""
import glob
import os
import re
import subprocess
import sys

HOOK_SYMBOL = re.compile(r"cmh_alloc_test_|inject_topology|alloc_testing")
HOOK_TEXT = (b"CMH_ALLOC_TOPOLOGY", b"cmh_alloc_test_", b"alloc_testing.h")


def main():
    if len(sys.argv) < 2:
        print(__doc__.splitlines()[-2])
        return 2
    prefix = sys.argv[1]
    libraries = sys.argv[2:] + sorted(glob.glob(os.path.join(prefix, "lib*", "**", "*.so*"), recursive=True))
    libraries = [lib for lib in libraries if os.path.isfile(lib) and not os.path.islink(lib)]
    headers = [h for h in glob.glob(os.path.join(prefix, "include", "**", "*"), recursive=True) if os.path.isfile(h)]
    problems = []
    if not libraries or not headers:
        problems.append(f"nothing installed under {prefix} ({len(libraries)} libraries, {len(headers)} headers)")
    for lib in libraries:
        nm = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
        if nm.returncode != 0:
            problems.append(f"nm -D {lib} failed: {nm.stderr.strip()}")
            continue
        for line in nm.stdout.splitlines():
            if HOOK_SYMBOL.search(line):
                problems.append(f"{lib} exports a test hook: {line.split()[-1]}")
        with open(lib, "rb") as f:
            data = f.read()
        for text in HOOK_TEXT:
            if text in data:
                problems.append(f"{lib} holds test-hook code ({text.decode()})")
    for header in headers:
        with open(header, "rb") as f:
            data = f.read()
        for text in HOOK_TEXT:
            if text in data or os.path.basename(header) == "alloc_testing.h":
                problems.append(f"installed header {os.path.relpath(header, prefix)} names a test hook ({text.decode()})")
                break
    for p in problems:
        print("walls:", p)
    print(f"walls: {len(libraries)} libraries, {len(headers)} headers: "
          + ("FAILED" if problems else "no test hook"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/bin/bash
# make test-numa, stage 2: runs inside the two-node guest (scripts/test-numa), in this
# machine's root mounted read-only with a tmpfs overlay. Prints what it checks and a
# PASS/FAIL line per check, then "N passed, N failed"; exit status 1 when one failed.
#   guest-checks.sh BUILD_DIR CTEST_REGEX [CTEST_EXCLUDE]
#   (CTEST_REGEX "all": the whole suite; CTEST_EXCLUDE "none" or empty: nothing excluded)
# Environment (from scripts/test-numa): CTEST_JOBS (ctest -j), CMH_TEST_TIMEOUT_SCALE (the
# hang guards' multiplier: the ctest TIMEOUTs of this copy of the build tree are rewritten,
# and the end-to-end scripts read it themselves, tests/e2e/cmhtest.py's guard()).
BUILD=$1
REGEX=$2
EXCLUDE=${3:-none}
CTEST_JOBS=${CTEST_JOBS:-1}
SCALE=${CMH_TEST_TIMEOUT_SCALE:-1}
export CMH_TEST_TIMEOUT_SCALE=$SCALE
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/tmp TMPDIR=/tmp LANG=C
unset CMH_ALLOC CMH_ALLOC_TOPOLOGY LD_PRELOAD
PROBE=$BUILD/tests/numa/numa-guest-probe
PROFILED=$(find "$BUILD/tests" -maxdepth 2 -name cmh-profiled -type f | head -1)
pass=0 fail=0
check() {  # check NAME STATUS [detail]
  if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "PASS $1"; else fail=$((fail + 1)); echo "FAIL $1 ${3:-}"; fi
}
up() { cut -d' ' -f1 /proc/uptime; }
echo "== guest: $(uname -r), $(nproc) CPUs, up $(up) s"
numactl -H
echo "== transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2> /dev/null)"

# (1) the allocator's tests and the NUMA-related end-to-end tests, as make test runs them
# (or, with "all", every test). The hang guards scale: this build tree is the guest's
# overlay copy, so rewriting its CTestTestfile.cmake files changes nothing on the host.
if [ "$SCALE" != 1 ]; then
  find "$BUILD" -name CTestTestfile.cmake -exec perl -pi -e \
    's/\bTIMEOUT "(\d+)"/"TIMEOUT \"" . ($1 * '"$SCALE"') . "\""/ge' {} +
fi
select=(-R "$REGEX")
[ "$REGEX" = all ] && select=()
[ "$EXCLUDE" = none ] || select+=(-E "$EXCLUDE")
echo "== ctest ${select[*]:-(all)} -j $CTEST_JOBS, hang guards x $SCALE (started at $(up) s)"
# Streamed as it runs (the host sees the results file grow), failures with their output.
ctest --test-dir "$BUILD" "${select[@]}" -j "$CTEST_JOBS" --output-on-failure \
  --timeout $((1800 * SCALE)) 2>&1 | tee /tmp/ctest.log
crc=${PIPESTATUS[0]}
# The skipped tests' reasons (ctest keeps their output only in its log).
awk '/^[0-9]+\/[0-9]+ Test: /{name=$3} /^SKIP/{print "   skipped " name ": " $0}' \
  "$BUILD/Testing/Temporary/LastTest.log" 2> /dev/null | head -40
check "ctest ${select[*]:-(all)}" "$crc"

# (2) the binding table: id | numactl flags | mode | reason (substring; !x = must not
# contain x) | placement of the allocator's blocks (numa-guest-probe). Each row under
# numactl (the probe), and as cmh fork arguments (the result file's cmh block and the
# fork's console header say what the fork ran).
echo "== binding table (started at $(up) s)"
MISMATCH="memory and cpu node configuration does not match"
SINGLE="The process is bound to a single NUMA node"
while IFS='|' read -r id flags mode reason placement; do
  [ -n "$id" ] || continue
  echo "-- $id: numactl $flags"
  # shellcheck disable=SC2086
  ${flags:+numactl $flags} "$PROBE" "$mode" "$reason" "$placement"
  binding="numactl $flags"
  [ -n "$flags" ] || binding="no binding"
  check "table $id: mode, reason and placement ($binding)" $?
  json=/tmp/row-$id.json
  # shellcheck disable=SC2086
  out=$("$PROFILED" Alloc.vector_1000 -f 1 -wi 0 -i 1 -r 100ms ${flags:+-forkArgs "$flags"} -rf json -rff "$json" 2>&1)
  rc=$?
  header=$(printf '%s\n' "$out" | grep '^# Fork NUMA: ' | head -1)
  echo "   $header"
  want_on=off
  [ "$mode" = off ] || want_on=on
  python3 - "$json" "$want_on" "$reason" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cmh = doc[0]["cmh"]
want, reason = sys.argv[2], sys.argv[3]
neg = reason.startswith("!")
text = reason[1:] if neg else reason
ok = cmh["numaMode"] == want and ((text in cmh["numaReason"]) != neg)
print(f"   json cmh: numaMode={cmh['numaMode']} numaNodes={cmh['numaNodes']!r} numaReason={cmh['numaReason']!r}")
sys.exit(0 if ok else 1)
PY
  jrc=$?
  [ "$rc" = 0 ] && [ "$jrc" = 0 ] && case $header in "# Fork NUMA: $want_on"*) true ;; *) false ;; esac
  check "table $id: the result file's cmh block and the fork header (-forkArgs '$flags')" $? "rc=$rc json=$jrc"
done << TABLE
none||membind|UseNUMA is enabled in 'membind' mode on nodes 0-1|thread
cpu0-mem0|--cpunodebind=0 --membind=0|off|!does not match|N0
cpu0-mem1|--cpunodebind=0 --membind=1|off|$SINGLE, and its $MISMATCH (cpu nodes 0, memory nodes 1)|N1
cpu0-mem01|--cpunodebind=0 --membind=0,1|off|$MISMATCH|any
interleave01|--interleave=0,1|interleave|'interleave' mode on nodes 0-1|thread
cpu0-interleave01|--cpunodebind=0 --interleave=0,1|off|$MISMATCH|split
localalloc|--localalloc|membind|'membind' mode on nodes 0-1|thread
preferred1|--preferred=1|membind|'membind' mode on nodes 0-1|thread
cpu1-preferred0|--cpunodebind=1 --preferred=0|off|$MISMATCH|N0
cpu01-mem0|--cpunodebind=0,1 --membind=0|off|$SINGLE, and its $MISMATCH (cpu nodes 0-1, memory nodes 0)|N0
cpu0-localalloc|--cpunodebind=0 --localalloc|off|$MISMATCH|N0
physcpu0|--physcpubind=0|off|$MISMATCH|N0
cpu0-interleave0|--cpunodebind=0 --interleave=0|off|$SINGLE|N0
TABLE

# (3) JEP 345's claim as a number: threads on both nodes, +UseNUMA, -prof numa.
echo "== numa.local.ratio, 4 threads on 2 nodes (started at $(up) s)"
json=/tmp/local.json
"$PROFILED" Alloc.vector_1000 -t 4 -f 1 -wi 1 -w 300ms -i 3 -r 300ms -prof numa -forkArgs "-XX:+UseNUMA -Xlog:numa" \
  -rf json -rff "$json" > /tmp/local.txt 2>&1
rc=$?
grep -E '\[cmh-alloc\]\[numa\]' /tmp/local.txt
python3 - "$json" << 'PY'
import json, sys
rec = json.load(open(sys.argv[1]))[0]
sec = rec["secondaryMetrics"]
ratio = sec.get("numa.local.ratio", {}).get("score")
nodes = {k: v["score"] for k, v in sec.items() if k.endswith(".alloc.norm")}
print(f"   numa.local.ratio={ratio} per node B/op={nodes}")
sys.exit(0 if ratio is not None and ratio >= 0.99 and len(nodes) == 2 and all(v > 0 for v in nodes.values()) else 1)
PY
check "numa.local.ratio >= 0.99 with +UseNUMA, both nodes allocating" $? "rc=$rc"
grep -q '^\[cmh-alloc\]\[numa\] at exit: ' /tmp/local.txt
check "-Xlog:numa prints the per-node statistics at exit" $?

# (4) NUMA off: the per-node figures are said to be unknown, never guessed.
"$PROFILED" Alloc.vector_1000 -t 4 -f 1 -wi 0 -i 1 -r 200ms -prof numa -forkArgs "--cpunodebind=0 --membind=1" \
  -rf json -rff /tmp/off.json > /tmp/off.txt 2>&1
python3 - /tmp/off.json << 'PY'
import json, sys
rec = json.load(open(sys.argv[1]))[0]
sec = rec["secondaryMetrics"]
note = rec["cmh"].get("notes", {}).get("numa.enabled", "")
print(f"   off: numa.enabled note={note!r}")
sys.exit(0 if "numa.local.ratio" not in sec and "unknown" in note and rec["cmh"]["numaMode"] == "off" else 1)
PY
check "NUMA off (--cpunodebind=0 --membind=1): cmh block off, local ratio unknown" $?

echo "== done at $(up) s"
echo "test-numa: $pass passed, $fail failed"
[ "$fail" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every row of bench/alloc on glibc, cmh, jemalloc, mimalloc and tcmalloc (each in
# its own process, so the peak RSS is the row's) and prints two Markdown tables: time per
# operation and peak RSS. Builds nothing: pass a configured and built build directory.
#   bench/alloc/run.sh build        (CMH_BENCH_SCALE=0.2 for a quicker, noisier run)
set -eu
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 <build-dir>" >&2
  exit 1
fi
build=$1
bench="$build/bench/cmh-alloc-bench"
cmh="$build/allocator/libcmhalloc.so"
for f in "$bench" "$cmh"; do
  if [ ! -e "$f" ]; then
    echo "$0: $f is missing; build the cmh-alloc-bench target first" >&2
    exit 1
  fi
done
libdir=/usr/lib/x86_64-linux-gnu
first_of() { for f in "$@"; do [ -e "$f" ] && { echo "$f"; return; }; done; echo ""; }
jemalloc=$(first_of "$libdir/libjemalloc.so.2")
mimalloc=$(first_of "$libdir/libmimalloc.so.2")
tcmalloc=$(first_of "$libdir/libtcmalloc_minimal.so.4" "$libdir/libtcmalloc.so.4")

names="glibc cmh jemalloc mimalloc tcmalloc"
lib_of() {
  case $1 in
    glibc) echo "none" ;;
    cmh) echo "$cmh" ;;
    jemalloc) echo "${jemalloc:-missing}" ;;
    mimalloc) echo "${mimalloc:-missing}" ;;
    tcmalloc) echo "${tcmalloc:-missing}" ;;
  esac
}
run_with() {  # allocator, arguments...
  lib=$(lib_of "$1")
  shift
  if [ "$lib" = none ]; then "$bench" "$@"; else LD_PRELOAD="$lib" "$bench" "$@"; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in $names; do
  lib=$(lib_of "$a")
  if [ "$lib" = missing ] || [ "$(run_with "$a" which 2>/dev/null)" != "$a" ]; then
    echo "$a" >>"$tmp/unavailable"
    continue
  fi
  for row in $("$bench" rows); do
    run_with "$a" "$row" >"$tmp/$a.$row" 2>/dev/null || echo "failed 0" >"$tmp/$a.$row"
  done
done

cell() {  # allocator row field(1=ns, 2=rss)
  if [ -f "$tmp/$1.$2" ]; then
    awk -v f="$3" '{ if (f == 1) printf "%.1f", $1; else printf "%.1f", $2 / 1024 }' "$tmp/$1.$2"
  else
    printf "n/a"
  fi
}
table() {  # field title
  printf '| %s |' "$2"
  for a in $names; do printf ' %s |' "$a"; done
  printf '\n|---|'
  for a in $names; do printf -- '---:|'; done
  printf '\n'
  for row in $("$bench" rows); do
    printf '| %s |' "$row"
    for a in $names; do printf ' %s |' "$(cell "$a" "$row" "$1")"; done
    printf '\n'
  done
}
echo "Allocator CPU time per operation in ns (process CPU time, best of several runs; an operation is a"
echo "malloc+free pair, except thread-churn: one thread started, 1000 allocations, exited and joined)"
echo
table 1 "ns/op"
echo
echo "Peak RSS of the process in MiB (each row is its own process)"
echo
table 2 "MiB"
if [ -f "$tmp/unavailable" ]; then
  echo
  echo "Not measured (library missing or LD_PRELOAD ineffective): $(tr '\n' ' ' <"$tmp/unavailable")"
fi

#!/usr/bin/env bash
# Allocation failures through the binary: fail the 1st, 2nd, ... library
# allocation until a run succeeds; every failing run exits 1 with "out of
# memory", leaves no output file, and (in the ASan build) leaks nothing.
. "$(dirname "$0")/lib.sh"
cd "$T"
# Small inputs of both kinds, so every allocation can be failed in turn.
printf 'JOB "tiny"\nDATE "Thu Jan  1 00:00 1970"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nMARK 0.050000\n' > tiny.hp
for s in 0 1 2; do
  printf 'BEGIN_SAMPLE 0.%d00000\nMAIN\t%d\n(1)f/g\t%d\nPINNED\t8\nEND_SAMPLE 0.%d00000\n' \
    $s $((100 + s)) $((50 * s + 8)) $s >> tiny.hp
done
python3 "$TOP/bench/gen.py" eventlog tiny.hp tiny.eventlog
fmts="svg csv hp"
case ${BUILD:-} in *asan*) fmts="svg";; esac   # slow there: the full path once
[ -z "${HP2X_UNDER_VALGRIND:-}" ] || fmts="svg"  # and under make valgrind
for src in tiny.eventlog tiny.hp; do
  for fmt in $fmts; do
    n=1 succeeded=0
    while [ $n -le 2000 ]; do
      HP2X_ALLOC_FAIL_AT=$n "$HP2X" -q "$src" -o "out.$fmt" 2> err.txt; rc=$?
      if [ $rc -eq 0 ]; then succeeded=1; break; fi
      if [ $rc -ne 1 ] || ! grep -q "out of memory" err.txt; then
        fail "$(basename "$src") -> $fmt, allocation $n: exit $rc: $(head -2 err.txt)"; break
      fi
      [ ! -e "out.$fmt" ] || { fail "allocation $n failure left out.$fmt"; break; }
      n=$((n + 1))
    done
    [ $succeeded = 1 ] && ok || fail "$(basename "$src") -> $fmt never succeeded ($n)"
    [ $n -gt 3 ] && ok || fail "$(basename "$src") -> $fmt: only $n allocations"
    rm -f "out.$fmt"
  done
done
finish

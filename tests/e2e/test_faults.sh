#!/usr/bin/env bash
# Allocation failures through the binary: fail the 1st, 2nd, ... library
# allocation until a run succeeds; every failing run exits 1 with "out of
# memory", leaves no output file, and (in the ASan build) leaks nothing.
. "$(dirname "$0")/lib.sh"
cd "$T"
for src in "$TOP/tests/data/malformed/small-valid-hc.eventlog" \
           "$TOP/samples/profiles/leak.hm.hp"; do
  for fmt in svg csv hp; do
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

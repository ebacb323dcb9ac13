#!/usr/bin/env bash
# Allocation failures on the reading aids' paths (filters, a window, the
# index axis, --heap lines, SVG tooltips, the summary table, PNG): fail the
# 1st, 2nd, ... library allocation until a run succeeds; every failing run
# exits 1 with "out of memory" and leaves no output file.
. "$(dirname "$0")/lib.sh"
cd "$T"
printf 'JOB "tiny"\nDATE "Thu Jan  1 00:00 1970"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nMARK 0.050000\n' > tiny.hp
for s in 0 1 2 3; do
  printf 'BEGIN_SAMPLE 0.%d00000\nMAIN\t%d\n(1)f/g\t%d\nPINNED\t8\nEND_SAMPLE 0.%d00000\n' \
    $s $((100 + s)) $((50 * s + 8)) $s >> tiny.hp
done
python3 "$TOP/bench/gen.py" eventlog tiny.hp tiny.eventlog
runs=("tiny.eventlog --heap --exclude PINNED --from 0.1 --x=index -c -o out.svg"
      "tiny.hp --summary --include MAIN -o out.txt"
      "tiny.hp --dpi=20 -o out.png")
case ${BUILD:-} in *asan*) runs=("${runs[0]}");; esac   # slow there
for run in "${runs[@]}"; do
  out=${run##* }
  n=1 succeeded=0
  while [ $n -le 3000 ]; do
    # shellcheck disable=SC2086
    HP2X_ALLOC_FAIL_AT=$n "$HP2X_FAULTS" -q $run 2> err.txt; rc=$?
    if [ $rc -eq 0 ]; then succeeded=1; break; fi
    if [ $rc -ne 1 ] || ! grep -q "out of memory" err.txt; then
      fail "$run, allocation $n: exit $rc: $(head -2 err.txt)"; break
    fi
    [ ! -e "$out" ] || { fail "allocation $n failure left $out"; break; }
    n=$((n + 1))
  done
  [ $succeeded = 1 ] && ok || fail "$run never succeeded ($n)"
  [ $n -gt 3 ] && ok || fail "$run: only $n allocations"
  rm -f "$out"
done
finish

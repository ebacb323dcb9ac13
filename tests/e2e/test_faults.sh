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
# Every output format, and hp2ps's mode (no -o: BASE.ps and BASE.aux).
# Format k of F fails allocations k, k + S, k + 2S, ... (stride S): each
# allocation index is failed in some format, each format at every S-th
# index.  S is 3 here; where runs are slow, 2F, the second input taking
# the indices the first leaves (one run per index and input pair).
fmts=(ps eps pdf svg png csv hp txt hp2ps)
stride=3 slow=
case ${BUILD:-} in *asan*) slow=1;; esac
[ -z "${HP2X_UNDER_VALGRIND:-}" ] || slow=1
[ -z "$slow" ] || stride=$((2 * ${#fmts[@]}))
k=0
for src in tiny.eventlog tiny.hp; do
  [ -n "$slow" ] || k=0
  for fmt in "${fmts[@]}"; do
    k=$((k + 1))
    if [ "$fmt" = hp2ps ]; then
      cp "$src" in.hp; args=(in.hp) outs=(in.ps in.aux)
      [ "$src" = tiny.eventlog ] && args=(--from-eventlog in.hp)
    else
      args=("$src" --format="$fmt" -o "out.$fmt") outs=("out.$fmt")
    fi
    n=$(( (k - 1) % stride + 1 )) succeeded=0 tried=0
    while [ $n -le 3000 ]; do
      HP2X_ALLOC_FAIL_AT=$n "$HP2X" -q "${args[@]}" 2> err.txt; rc=$?
      tried=$((tried + 1))
      if [ $rc -eq 0 ]; then succeeded=1; break; fi
      if [ $rc -ne 1 ] || ! grep -q "out of memory" err.txt; then
        fail "$(basename "$src") -> $fmt, allocation $n: exit $rc: $(head -2 err.txt)"; break
      fi
      for o in "${outs[@]}"; do
        [ ! -e "$o" ] || { fail "allocation $n failure left $o"; break 2; }
      done
      n=$((n + stride))
    done
    [ $succeeded = 1 ] && ok || fail "$(basename "$src") -> $fmt never succeeded ($n)"
    [ $tried -ge $((slow ? 2 : 4)) ] && ok || fail "$(basename "$src") -> $fmt: only $tried runs"
    rm -f "${outs[@]}" in.hp
  done
done
finish

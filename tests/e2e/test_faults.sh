#!/usr/bin/env bash
# Allocation failures through the binary: fail the 1st, 2nd, ... library
# allocation until a run succeeds; every failing run exits 1 with "out of
# memory", leaves no output file, and (in the ASan build) leaks nothing.
# The hook is in the test build (BUILD/hp2x-faults) only: the shipped
# binary has neither the variable's name nor the function, and ignores it.
. "$(dirname "$0")/lib.sh"
cd "$T"
shipped=${BUILD:-$TOP/build}/hp2x
[ -x "$HP2X_FAULTS" ] && ok || fail "no test build $HP2X_FAULTS"
for b in "$shipped" "$HP2X_FAULTS"; do
  names=$(grep -ac HP2X_ALLOC_FAIL_AT "$b")
  syms=$(nm "$b" 2>/dev/null | grep -c 'hpx_alloc_fail_at')
  if [ "$b" = "$shipped" ]; then
    [ "$names" = 0 ] && [ "$syms" = 0 ] && ok ||
      fail "the shipped binary has the hook ($names names, $syms symbols)"
  else   # the check above can fail: the test build has both
    [ "$names" -gt 0 ] && [ "$syms" -gt 0 ] && ok ||
      fail "the test build lacks the hook ($names names, $syms symbols)"
  fi
done
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
fmts=(ps eps pdf svg png csv hp txt html pprof hp2ps)
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
      HP2X_ALLOC_FAIL_AT=$n "$HP2X_FAULTS" -q "${args[@]}" 2> err.txt; rc=$?
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
# The shipped binary ignores the variable: the first allocation does not
# fail.
HP2X_ALLOC_FAIL_AT=1 "$HP2X" -q tiny.hp -o out.svg 2> err.txt && [ -s out.svg ] &&
  ok || fail "the shipped binary obeyed HP2X_ALLOC_FAIL_AT: $(head -1 err.txt)"
finish
